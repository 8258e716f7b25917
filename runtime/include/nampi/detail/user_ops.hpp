// User reduction callables as MPI_Ops.
//
// MPI calls a user op as `f(in, inout, len, type)`: no pointer to user data.
//  * A stateless callable (a lambda without captures, an empty function
//    object) needs none: one MPI_Op per (element type, callable type,
//    commutativity), created on first use.
//  * A callable with state (captures, a function pointer, std::function, a
//    function object with members) is reached through an op table: each of
//    op_table_size entries (per commutativity) has its own trampoline and its
//    own MPI_Op, created on first use. A call leases a free entry, points it at
//    its callable, and gives the entry's MPI_Op to MPI; the lease lives in the
//    call's op slot, so it ends when the call has completed (a nonblocking or
//    persistent call keeps its slots until then). A program that runs its
//    reductions one after the other uses one entry: one MPI_Op in all.
// Every MPI_Op created here is freed by op_registry().free_all() (Environment
// calls it before MPI_Finalize); a later reduction creates it again.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/handle_registry.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

// inout[i] = f(in[i], inout[i]): MPI passes the lower ranks' data as `in`, so
// the left operand comes first, as a non-commutative op needs.
// F may be non-const: a function object whose operator() is not const (a
// mutable lambda) is called as it is.
template <typename T, typename F>
void apply_elements(F& f, void* in, void* inout, int length) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < length; ++i) b[i] = static_cast<T>(f(a[i], b[i]));
}

// The MPI_Op in `cache`, created from `function` on first use and registered
// so that free_all() frees it and resets the cache.
inline MPI_Op cached_user_op(atomic_cell<MPI_Op>& cache, MPI_User_function* function,
                             bool commute) {
  const MPI_Op known = cache.load();
  if (known != MPI_OP_NULL) return known;
  static atomic_cell<bool> creating;
  const spin_guard held(creating);
  MPI_Op op = cache.load();
  if (op == MPI_OP_NULL) {
    const int code = MPI_Op_create(function, commute ? 1 : 0, &op);
    if (code != MPI_SUCCESS) throw mpi_error("MPI_Op_create", code);
    cache.store(op);
    op_registry().add_cached(&cache);
  }
  return op;
}

template <typename T, typename F>
void apply_stateless(void* in, void* inout, int* length, MPI_Datatype*) {
  F f{};
  apply_elements<T>(f, in, inout, *length);
}

// The MPI_Op of a stateless callable F on elements T.
template <typename T, typename F, bool Commute>
MPI_Op stateless_user_op() {
  static atomic_cell<MPI_Op> cache{MPI_OP_NULL};
  return cached_user_op(cache, &apply_stateless<T, F>, Commute);
}

// Entries per commutativity: how many reductions with a stateful callable can
// be pending at once.
inline constexpr std::size_t op_table_size = 64;

struct op_entry {
  atomic_cell<bool> leased{false};
  // The leaseholder's callable: an object's address, or a function's address
  // (a copy: a function pointer needs no storage of the call's).
  const void* object = nullptr;
  void (*function)() = nullptr;
  // Knows the callable's type and the element type.
  void (*apply)(const op_entry& entry, void* in, void* inout, int length) = nullptr;
  atomic_cell<MPI_Op> op{MPI_OP_NULL};
};

template <bool Commute>
std::array<op_entry, op_table_size>& op_entries() {
  static std::array<op_entry, op_table_size> entries{};
  return entries;
}

template <typename T, typename F>
void apply_object(const op_entry& entry, void* in, void* inout, int length) {
  const F& object = *static_cast<const F*>(entry.object);
  if constexpr (std::is_invocable_v<const F&, const T&, const T&>)
    apply_elements<T>(object, in, inout, length);
  else
    // Only callable when not const: the call's slot holds the caller's object or
    // one moved in, neither of them const (a const one could not be called at all).
    apply_elements<T>(const_cast<F&>(object), in, inout, length);
}
template <typename T, typename Function>
void apply_function(const op_entry& entry, void* in, void* inout, int length) {
  Function* function = reinterpret_cast<Function*>(entry.function);
  apply_elements<T>(function, in, inout, length);
}

// The user function of entry I: forwards to the callable leased there.
template <bool Commute, std::size_t I>
void entry_trampoline(void* in, void* inout, int* length, MPI_Datatype*) {
  const op_entry& entry = op_entries<Commute>()[I];
  entry.apply(entry, in, inout, *length);
}

template <bool Commute, std::size_t... I>
constexpr std::array<MPI_User_function*, sizeof...(I)> make_trampolines(std::index_sequence<I...>) {
  return {&entry_trampoline<Commute, I>...};
}
template <bool Commute>
inline constexpr auto entry_trampolines =
    make_trampolines<Commute>(std::make_index_sequence<op_table_size>{});

// One call's hold on an op table entry; released when destroyed.
class op_lease {
 public:
  op_lease() = default;
  op_lease(op_lease&& other) noexcept : entry_(std::exchange(other.entry_, nullptr)) {}
  op_lease& operator=(op_lease&&) = delete;
  ~op_lease() {
    if (entry_ != nullptr) entry_->leased.store(false);
  }

  // Leases a free entry for `callable`, which must stay where it is until the
  // lease ends, and returns the entry's MPI_Op.
  template <typename T, typename F, bool Commute>
  MPI_Op acquire(const F& callable) {
    auto& entries = op_entries<Commute>();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      bool free = false;
      if (!entries[i].leased.compare_exchange(free, true)) continue;
      entry_ = &entries[i];
      point_at<T>(callable);
      return cached_user_op(entry_->op, entry_trampolines<Commute>[i], Commute);
    }
    throw usage_error("nampi: " + std::to_string(op_table_size) +
                      " reductions with a stateful user op are pending already (the limit is "
                      "nampi::detail::op_table_size); complete some first");
  }

 private:
  template <typename T, typename F>
  void point_at(const F& callable) {
    using function_type = std::remove_pointer_t<F>;
    if constexpr (std::is_function_v<function_type>) {
      function_type* function = callable;  // F is a function or a function pointer
      if (function == nullptr) throw usage_error("nampi: op(...) got a null function pointer");
      entry_->function = reinterpret_cast<void (*)()>(function);
      entry_->apply = &apply_function<T, function_type>;
    } else {
      entry_->object = &callable;
      entry_->apply = &apply_object<T, F>;
    }
  }

  op_entry* entry_ = nullptr;
};

}  // namespace nampi::detail
