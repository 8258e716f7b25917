// One operation held by a request pool (request_pool.hpp): what the pool does
// once MPI reports the operation's request complete.
//
// A pool mixes operations of any type: nonblocking_results of different calls
// and raw MPI_Requests, each with the caller's handler. pool_operation erases
// their types behind a table of four functions. Small operations (a result is
// two pointers; a handler usually captures a few references) live inside the
// pool_operation itself, so adding to a pool allocates nothing beyond what the
// nonblocking call already did; larger ones go to the heap.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace nampi::detail {

// The handler of an operation added without one.
struct no_handler {};

// Completes a nonblocking_result the pool owns: its request was completed by
// the pool's MPI call, so the value is taken without another MPI call and
// handed to the handler.
template <typename Result, typename Handler>
struct result_completion {
  static constexpr bool needs_status = Result::has_status;

  void complete(const MPI_Status* status) {
    result.mpi_request() = MPI_REQUEST_NULL;
    if constexpr (std::is_void_v<typename Result::value_type>) {
      result.take_completed(status);
      if constexpr (!std::is_same_v<Handler, no_handler>) handler();
    } else {
      handler(result.take_completed(status));
    }
  }
  // MPI completed the request, but the value is dropped: the result must not
  // wait for the (freed) request when it is destroyed.
  void abandon() noexcept {
    if (result.holds_call()) result.mpi_request() = MPI_REQUEST_NULL;
  }

  Result result;
  Handler handler;
};

// Completes a raw MPI_Request: calls the handler with MPI's status, or with
// nothing if it takes nothing.
template <typename Handler>
struct raw_request_completion {
  static constexpr bool needs_status = std::is_invocable_v<Handler&, const MPI_Status&>;

  void complete(const MPI_Status* status) {
    if constexpr (needs_status)
      handler(*status);
    else if constexpr (!std::is_same_v<Handler, no_handler>)
      handler();
    else
      (void)status;
  }
  void abandon() noexcept {}

  Handler handler;
};

class pool_operation {
  // Room for a result (two pointers) and a handler capturing four pointers.
  static constexpr std::size_t inline_size = 6 * sizeof(void*);

  template <typename C>
  static constexpr bool fits_inline =
      sizeof(C) <= inline_size && alignof(C) <= alignof(std::max_align_t) &&
      std::is_nothrow_move_constructible_v<C>;

  struct operations {
    void (*complete)(void* storage, const MPI_Status* status);
    void (*abandon)(void* storage) noexcept;
    void (*relocate)(void* from, void* to) noexcept;  // move, then destroy the source
    void (*destroy)(void* storage) noexcept;
    bool needs_status;
  };

  // The completion itself in the storage.
  template <typename C>
  struct held_inline {
    static C& get(void* s) noexcept { return *std::launder(static_cast<C*>(s)); }
    static constexpr operations table{
        [](void* s, const MPI_Status* status) { get(s).complete(status); },
        [](void* s) noexcept { get(s).abandon(); },
        [](void* from, void* to) noexcept {
          ::new (to) C(std::move(get(from)));
          get(from).~C();
        },
        [](void* s) noexcept { get(s).~C(); },
        C::needs_status,
    };
  };

  // A pointer to it in the storage.
  template <typename C>
  struct held_on_heap {
    static C*& get(void* s) noexcept { return *std::launder(static_cast<C**>(s)); }
    static constexpr operations table{
        [](void* s, const MPI_Status* status) { get(s)->complete(status); },
        [](void* s) noexcept { get(s)->abandon(); },
        [](void* from, void* to) noexcept { ::new (to) C*(get(from)); },
        [](void* s) noexcept { delete get(s); },
        C::needs_status,
    };
  };

 public:
  pool_operation() noexcept = default;

  template <typename Completion>
  explicit pool_operation(Completion&& completion) {
    using C = std::remove_cvref_t<Completion>;
    if constexpr (fits_inline<C>) {
      ::new (static_cast<void*>(storage_)) C(std::forward<Completion>(completion));
      table_ = &held_inline<C>::table;
    } else {
      ::new (static_cast<void*>(storage_)) C*(new C(std::forward<Completion>(completion)));
      table_ = &held_on_heap<C>::table;
    }
  }

  pool_operation(pool_operation&& other) noexcept { take_from(other); }
  pool_operation& operator=(pool_operation&& other) noexcept {
    if (this != &other) {
      reset();
      take_from(other);
    }
    return *this;
  }
  pool_operation(const pool_operation&) = delete;
  pool_operation& operator=(const pool_operation&) = delete;

  // Destroying an operation drops its value: the pool does that only after
  // MPI completed its request.
  ~pool_operation() { reset(); }

  bool holds_operation() const noexcept { return table_ != nullptr; }
  bool needs_status() const noexcept { return table_ != nullptr && table_->needs_status; }

  // Runs the handler on the value; the operation is empty afterwards, also
  // when the handler throws.
  void complete(const MPI_Status* status) {
    struct empty_on_exit {
      pool_operation& self;
      ~empty_on_exit() { self.reset(); }
    } guard{*this};
    table_->complete(storage_, status);
  }

 private:
  void reset() noexcept {
    if (table_ == nullptr) return;
    table_->abandon(storage_);
    table_->destroy(storage_);
    table_ = nullptr;
  }

  void take_from(pool_operation& other) noexcept {
    if (other.table_ == nullptr) return;
    other.table_->relocate(other.storage_, storage_);
    table_ = std::exchange(other.table_, nullptr);
  }

  alignas(std::max_align_t) std::byte storage_[inline_size];
  const operations* table_ = nullptr;
};

}  // namespace nampi::detail
