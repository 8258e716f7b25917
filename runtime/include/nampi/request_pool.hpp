// Request pools: many nonblocking operations in flight, completed together by
// single MPI_Waitall / Waitany / Waitsome / Testall / Testany / Testsome calls.
//
//   nampi::request_pool pool;                 // any number in flight
//   nampi::bounded_request_pool window(16);   // at most 16 in flight
//   for (int p : neighbours)
//     pool.add(comm.irecv<double>(source(p), recv_count(n)),
//              [&, p](std::vector<double> halo) { halos[p] = std::move(halo); });
//   for (int p : neighbours) pool.add(comm.isend(send_buf(out[p]), dest(p)));
//   pool.wait_all();                          // one MPI_Waitall, then the handlers
//
// The pool owns what is added until it completes: nonblocking_results (moved
// in, of any calls, mixed freely) and raw MPI_Requests (from plain MPI or the
// typed layer; the caller's copy of the handle must not be completed again).
//
// Values come out through handlers. add() takes, with each operation, a
// handler that the pool calls with the operation's value (what wait() would
// return) when the operation completes, in whichever pool call sees that:
// wait_all(), wait_any(), ..., or add() itself when a bounded pool is full and
// must complete one operation to free a slot. No value is lost: a call that
// returns a value cannot be added without a handler (compile error; pass
// `[](auto&&) {}` to drop it on purpose). Calls that return nothing need no
// handler. A raw request's handler takes MPI's status or nothing. A call with
// a status parameter (status_out) gets MPI's status in it, as from wait().
//
// Cost: each pool call is exactly one MPI call over the pool's request array
// (none if the pool is empty); the pool never calls MPI_Wait or MPI_Test on
// single requests. Statuses are requested from MPI only while an operation in
// flight needs one. Adding allocates nothing beyond the nonblocking call's own
// allocation for handlers capturing up to four pointers (a bounded pool
// allocates its arrays once; an unbounded one grows them).
//
// Handlers run after the pool is consistent again, so they may add to the
// pool (e.g. post the next receive). If a handler throws, the exception leaves
// the pool call, and operations completed by the same MPI call whose handlers
// had not run yet are dropped. If the MPI call fails, the mpi_error leaves the
// pool call, and the operations MPI completed are dropped.
//
// Destroying a pool with operations in flight waits for them (one
// MPI_Waitall), as a pending nonblocking_result does, but runs no handlers:
// what they refer to may already be destroyed.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/deferred.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/pool_operation.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"
#include "nampi/nonblocking.hpp"

namespace nampi {

template <typename T>
inline constexpr bool is_nonblocking_result_v = false;
template <typename ArgList, std::size_t StatusIndex, typename Request, typename... Slots>
inline constexpr bool
    is_nonblocking_result_v<nonblocking_result<ArgList, StatusIndex, Request, Slots...>> = true;

namespace detail {

// Whether a pool can call `Handler` with a call's value (with nothing if the
// call returns nothing).
template <typename Handler, typename Value>
constexpr bool handler_takes() {
  if constexpr (std::is_void_v<Value>)
    return std::is_invocable_v<Handler&>;
  else
    return std::is_invocable_v<Handler&, Value&&>;
}

namespace coro {
struct pool_access;  // a nampi::task awaiting a pool (coroutine/awaitables.hpp)
}

// The common part of request_pool and bounded_request_pool: slot i of the
// pool is requests_[i] (MPI's array) and operations_[i]; free slots hold
// MPI_REQUEST_NULL, which MPI's completion functions skip. A template, with
// member types that depend on its parameter (deferred.hpp), only so that a
// unit that includes nampi but uses no pool compiles none of it.
template <typename Unused = void>
class basic_request_pool {
 public:
  basic_request_pool(const basic_request_pool&) = delete;
  basic_request_pool& operator=(const basic_request_pool&) = delete;
  basic_request_pool(basic_request_pool&& other) noexcept { take_from(other); }
  basic_request_pool& operator=(basic_request_pool&& other) noexcept {
    if (this != &other) {
      wait_quietly();
      take_from(other);
    }
    return *this;
  }
  ~basic_request_pool() { wait_quietly(); }

  // Adds a nonblocking call's result; `handler(value)` runs when it completes
  // (optional for calls that return nothing, then `handler()`).
  template <typename Result, typename Handler = no_handler>
    requires is_nonblocking_result_v<std::remove_cvref_t<Result>>
  void add(Result&& result, Handler&& handler = {}) {
    using result_type = std::remove_cvref_t<Result>;
    using value_type = typename result_type::value_type;
    using handler_type = std::decay_t<Handler>;
    constexpr bool moved_in = !std::is_lvalue_reference_v<Result>;
    constexpr bool without_handler = std::is_same_v<handler_type, no_handler>;
    constexpr bool has_mpi_request = result_type::has_mpi_request;
    // Each misuse fails exactly one of these.
    static_assert(has_mpi_request,
                  "nampi: request_pool::add: a range communicator's nonblocking result has no MPI "
                  "request to complete in a pool (its wait() and test() drive it)");
    static_assert(!has_mpi_request || moved_in,
                  "nampi: request_pool::add: move the result in (std::move): the pool owns it "
                  "until it completes");
    static_assert(!has_mpi_request || !moved_in || std::is_void_v<value_type> || !without_handler,
                  "nampi: request_pool::add: this call returns a value (received data, a "
                  "moved-in buffer handed back, ...); pass a handler that takes it, or "
                  "[](auto&&) {} to drop it");
    static_assert(!has_mpi_request || !moved_in || without_handler ||
                      handler_takes<handler_type, value_type>(),
                  "nampi: request_pool::add: the handler cannot take this call's value (a call "
                  "that returns nothing calls it with no argument)");
    constexpr bool handler_fits =
        without_handler ? std::is_void_v<value_type> : handler_takes<handler_type, value_type>();
    if constexpr (has_mpi_request && moved_in && handler_fits) {
      using completion = result_completion<result_type, handler_type>;
      const MPI_Request request = result.mpi_request();
      if (request == MPI_REQUEST_NULL) {  // completed elsewhere: only the value is left
        pool_operation(completion{std::move(result), std::forward<Handler>(handler)})
            .complete(MPI_STATUS_IGNORE);
        return;
      }
      insert(request, [&] {
        return pool_operation(completion{std::move(result), std::forward<Handler>(handler)});
      });
    }
  }

  // Adds a raw request, which the pool then owns; `handler(status)` or
  // `handler()` runs when it completes.
  template <typename Handler = no_handler>
  void add(MPI_Request request, Handler&& handler = {}) {
    using handler_type = std::decay_t<Handler>;
    static_assert(std::is_same_v<handler_type, no_handler> ||
                      std::is_invocable_v<handler_type&, const MPI_Status&> ||
                      std::is_invocable_v<handler_type&>,
                  "nampi: request_pool::add: a raw request's handler takes a const MPI_Status& "
                  "or nothing");
    NAMPI_ASSERT(request != MPI_REQUEST_NULL, "%s",
                 "request_pool::add: MPI_REQUEST_NULL has nothing to complete");
    insert(request, [&] {
      return pool_operation(raw_request_completion<handler_type>{std::forward<Handler>(handler)});
    });
  }

  // A request of the typed layer (nampi::mpi).
  template <typename Handler = no_handler>
  void add(mpi::request request, Handler&& handler = {}) {
    add(request.get(), std::forward<Handler>(handler));
  }

  // Operations in flight.
  std::size_t size() const noexcept { return in_flight_; }
  bool empty() const noexcept { return in_flight_ == 0; }

  // Completes everything in flight: one MPI_Waitall.
  void wait_all() {
    check_not_awaited("wait_all");
    if (in_flight_ == 0) return;
    call("MPI_Waitall", MPI_Waitall, count(), requests_.data(), statuses());
    complete_all();
  }

  // Completes everything if everything is complete: one MPI_Testall. True if
  // it did (or the pool was empty).
  bool test_all() {
    check_not_awaited("test_all");
    if (in_flight_ == 0) return true;
    int done = 0;
    call("MPI_Testall", MPI_Testall, count(), requests_.data(), &done, statuses());
    if (done != 0) complete_all();
    return done != 0;
  }

  // Completes one operation: one MPI_Waitany. False if the pool was empty.
  bool wait_any() {
    check_not_awaited("wait_any");
    if (in_flight_ == 0) return false;
    int index = MPI_UNDEFINED;
    MPI_Status status{};
    call("MPI_Waitany", MPI_Waitany, count(), requests_.data(), &index, status_of_one(status));
    complete_one(index, status);
    return true;
  }

  // Completes one operation if one is complete: one MPI_Testany.
  bool test_any() {
    check_not_awaited("test_any");
    if (in_flight_ == 0) return false;
    int index = MPI_UNDEFINED;
    int done = 0;
    MPI_Status status{};
    call("MPI_Testany", MPI_Testany, count(), requests_.data(), &index, &done,
         status_of_one(status));
    if (done == 0 || index == MPI_UNDEFINED) return false;
    complete_one(index, status);
    return true;
  }

  // Completes at least one operation, and every other one that is complete:
  // one MPI_Waitsome. Returns how many completed (0 if the pool was empty).
  std::size_t wait_some() {
    check_not_awaited("wait_some");
    if (in_flight_ == 0) return 0;
    int completed = 0;
    indices_.resize(requests_.size());
    call("MPI_Waitsome", MPI_Waitsome, count(), requests_.data(), &completed, indices_.data(),
         statuses());
    return complete_some(completed);
  }

  // Completes every operation that is complete: one MPI_Testsome. Returns how
  // many completed.
  std::size_t test_some() {
    check_not_awaited("test_some");
    if (in_flight_ == 0) return 0;
    int completed = 0;
    indices_.resize(requests_.size());
    call("MPI_Testsome", MPI_Testsome, count(), requests_.data(), &completed, indices_.data(),
         statuses());
    return complete_some(completed);
  }

 protected:
  // `max_in_flight` slots at most; a bounded pool allocates its arrays at the
  // first add, once (grow()).
  basic_request_pool(std::size_t max_in_flight, bool bounded) noexcept
      : max_in_flight_(max_in_flight), bounded_(bounded) {}

  std::size_t max_in_flight() const noexcept { return max_in_flight_; }

 private:
  // An operation taken out of its slot, with the status MPI reported for it.
  struct finished_operation {
    deferred_t<pool_operation, Unused> operation;
    deferred_t<MPI_Status, Unused> status;
  };

  int count() const noexcept { return static_cast<int>(requests_.size()); }

  // MPI's status array, or MPI_STATUSES_IGNORE while no operation needs one.
  MPI_Status* statuses() {
    if (needing_status_ == 0) return MPI_STATUSES_IGNORE;
    statuses_.resize(requests_.size());
    return statuses_.data();
  }
  MPI_Status* status_of_one(MPI_Status& status) const noexcept {
    return needing_status_ == 0 ? MPI_STATUS_IGNORE : &status;
  }

  // Puts `request` and the operation that make_operation() returns in a free
  // slot, first completing operations while a bounded pool is full.
  template <typename MakeOperation>
  void insert(MPI_Request request, MakeOperation&& make_operation) {
    check_not_awaited("add");
    while (free_slots_.empty() && requests_.size() >= max_in_flight_) wait_any();
    std::size_t slot;
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    } else {
      NAMPI_ASSERT(requests_.size() < static_cast<std::size_t>(INT_MAX), "%s",
                   "request_pool: more requests in flight than MPI can count (INT_MAX)");
      if (requests_.size() == requests_.capacity()) grow();
      slot = requests_.size();
      requests_.push_back(MPI_REQUEST_NULL);
      operations_.emplace_back();
    }
    try {
      operations_[slot] = make_operation();
    } catch (...) {
      free_slots_.push_back(slot);
      throw;
    }
    requests_[slot] = request;
    ++in_flight_;
    if (operations_[slot].needs_status()) ++needing_status_;
  }

  // Room for more slots, the arrays grown together so that releasing a slot
  // later cannot allocate. A bounded pool gets all its slots (and the arrays
  // of its completion calls) at once: it never grows again.
  void grow() {
    if (bounded_) {
      requests_.reserve(max_in_flight_);
      operations_.reserve(max_in_flight_);
      free_slots_.reserve(max_in_flight_);
      indices_.reserve(max_in_flight_);
      statuses_.reserve(max_in_flight_);
      scratch_.reserve(max_in_flight_);
    } else {
      const std::size_t capacity = std::max<std::size_t>(16, 2 * requests_.capacity());
      requests_.reserve(capacity);
      operations_.reserve(capacity);
      free_slots_.reserve(capacity);
    }
  }

  // Frees slot i, whose request MPI completed, and returns its operation.
  pool_operation release(std::size_t i) noexcept {
    pool_operation operation = std::move(operations_[i]);
    requests_[i] = MPI_REQUEST_NULL;
    --in_flight_;
    if (operation.needs_status()) --needing_status_;
    if (in_flight_ == 0) {  // start over from slot 0: MPI scans shorter arrays
      requests_.clear();
      operations_.clear();
      free_slots_.clear();
    } else {
      free_slots_.push_back(i);
    }
    return operation;
  }

  void complete_one(int index, MPI_Status& status) {
    pool_operation operation = release(static_cast<std::size_t>(index));
    operation.complete(operation.needs_status() ? &status : MPI_STATUS_IGNORE);
  }

  // After MPI_Waitall or a successful MPI_Testall: statuses_[i] is slot i's.
  void complete_all() {
    std::vector<finished_operation> batch = take_scratch();
    for (std::size_t i = 0; i < operations_.size(); ++i) {
      if (!operations_[i].holds_operation()) continue;
      finished_operation& f = batch.emplace_back();
      if (operations_[i].needs_status()) f.status = statuses_[i];
      f.operation = release(i);
    }
    run(batch);
  }

  // After MPI_Waitsome or MPI_Testsome: statuses_[j] is slot indices_[j]'s.
  std::size_t complete_some(int completed) {
    if (completed == MPI_UNDEFINED || completed <= 0) return 0;
    std::vector<finished_operation> batch = take_scratch();
    for (int j = 0; j < completed; ++j) {
      const std::size_t i = static_cast<std::size_t>(indices_[static_cast<std::size_t>(j)]);
      finished_operation& f = batch.emplace_back();
      if (operations_[i].needs_status()) f.status = statuses_[static_cast<std::size_t>(j)];
      f.operation = release(i);
    }
    run(batch);
    return static_cast<std::size_t>(completed);
  }

  // The handlers run once every completed operation is out of the pool.
  void run(std::vector<finished_operation>& batch) {
    for (finished_operation& f : batch)
      f.operation.complete(f.operation.needs_status() ? &f.status : MPI_STATUS_IGNORE);
    batch.clear();
    if (batch.capacity() > scratch_.capacity()) scratch_ = std::move(batch);
  }

  // The reusable batch buffer; a handler that re-enters the pool gets a new one.
  std::vector<finished_operation> take_scratch() {
    std::vector<finished_operation> batch =
        std::exchange(scratch_, std::vector<finished_operation>());
    batch.clear();
    batch.reserve(in_flight_);
    return batch;
  }

  // One MPI completion call. If it fails, the operations whose requests MPI
  // completed anyway (set to MPI_REQUEST_NULL) are dropped.
  template <typename Function, typename... Args>
  void call(const char* name, Function function, Args... args) {
    try {
      detail::call_mpi(name, function, args...);
    } catch (...) {
      for (std::size_t i = 0; i < operations_.size(); ++i)
        if (operations_[i].holds_operation() && requests_[i] == MPI_REQUEST_NULL) release(i);
      throw;
    }
  }

  void wait_quietly() noexcept {
    if (in_flight_ == 0) return;
    const int code = MPI_Waitall(count(), requests_.data(), MPI_STATUSES_IGNORE);
    if (code != MPI_SUCCESS) {
      std::fprintf(stderr,
                   "nampi: request_pool: waiting for a destroyed pool's requests failed: %s\n",
                   mpi_error::error_string(code).c_str());
      std::terminate();
    }
    operations_.clear();  // their requests are complete: the values are dropped
    requests_.clear();
    free_slots_.clear();
    in_flight_ = 0;
    needing_status_ = 0;
  }

  friend struct coro::pool_access;

  // While a nampi::task awaits the pool (co_await pool), its requests are the task
  // scheduler's: completing them here too would complete them twice.
  void check_not_awaited(const char* what) const {
    NAMPI_CHECK(!awaited_,
                "request_pool::%s: a nampi::task is awaiting this pool (co_await pool); use it "
                "again once that co_await returned",
                what);
  }

  void take_from(basic_request_pool& other) noexcept {
    max_in_flight_ = other.max_in_flight_;
    bounded_ = other.bounded_;
    requests_ = std::move(other.requests_);
    operations_ = std::move(other.operations_);
    free_slots_ = std::move(other.free_slots_);
    statuses_ = std::move(other.statuses_);
    indices_ = std::move(other.indices_);
    scratch_ = std::move(other.scratch_);
    in_flight_ = std::exchange(other.in_flight_, 0);
    needing_status_ = std::exchange(other.needing_status_, 0);
    other.requests_.clear();
    other.operations_.clear();
    other.free_slots_.clear();
  }

  std::size_t max_in_flight_ = 0;
  bool bounded_ = false;
  // deferred_t: see the class comment.
  std::vector<deferred_t<MPI_Request, Unused>> requests_;
  std::vector<deferred_t<pool_operation, Unused>> operations_;
  std::vector<deferred_t<std::size_t, Unused>> free_slots_;
  std::vector<deferred_t<MPI_Status, Unused>> statuses_;
  std::vector<deferred_t<int, Unused>> indices_;
  std::vector<finished_operation> scratch_;
  std::size_t in_flight_ = 0;
  std::size_t needing_status_ = 0;
  bool awaited_ = false;
};

}  // namespace detail

// Any number of operations in flight; its arrays grow as needed.
class request_pool : public detail::basic_request_pool<> {
 public:
  // A constructor template only so that no unit compiles the pool's code
  // before it makes a pool (see basic_request_pool).
  template <typename Unused = void>
  request_pool() : basic_request_pool(static_cast<std::size_t>(INT_MAX), false) {}
};

// At most `slots` operations in flight: adding to a full pool first completes
// one (MPI_Waitany) and runs its handler. Its arrays are allocated once.
class bounded_request_pool : public detail::basic_request_pool<> {
 public:
  template <typename Unused = void>  // as request_pool's
  explicit bounded_request_pool(std::size_t slots) : basic_request_pool(checked(slots), true) {}

  std::size_t slots() const noexcept { return max_in_flight(); }

 private:
  static std::size_t checked(std::size_t slots) {
    if (slots == 0 || slots > static_cast<std::size_t>(INT_MAX))
      throw usage_error("nampi: bounded_request_pool: slots must be in 1..INT_MAX, not " +
                        std::to_string(slots));
    return slots;
  }
};

}  // namespace nampi
