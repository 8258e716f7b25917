// exscan's result at rank 0, which MPI leaves undefined (or, in place, as rank
// 0's input): values_on_rank_0 when given, else the op's identity for builtin
// ops (spec/bindings/collectives.yaml exscan, exscan_single). A user op has no
// known identity: rank 0's result is then what MPI leaves there.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/infer.hpp"
#include "nampi/ops.hpp"
#include "nampi/slot.hpp"
#include "nampi/std_parts.hpp"

namespace nampi::detail {

template <template <typename> class F, typename Op>
inline constexpr bool is_functor_v = false;
template <template <typename> class F, typename U>
inline constexpr bool is_functor_v<F, F<U>> = true;

// The identity of a builtin op (functor or MPI_Op handle) on T, if it has one.
template <typename T, typename Op>
std::optional<T> op_identity(const Op& op) {
  if constexpr (!std::is_arithmetic_v<T>) {
    return std::nullopt;
  } else if constexpr (is_functor_v<std::plus, Op> || is_functor_v<std::bit_or, Op> ||
                       is_functor_v<std::bit_xor, Op> || is_functor_v<std::logical_or, Op> ||
                       is_functor_v<ops::logical_xor, Op>) {
    return T(0);
  } else if constexpr (is_functor_v<std::multiplies, Op> || is_functor_v<std::logical_and, Op>) {
    return T(1);
  } else if constexpr (is_functor_v<ops::max, Op>) {
    return std::numeric_limits<T>::lowest();
  } else if constexpr (is_functor_v<ops::min, Op>) {
    return std::numeric_limits<T>::max();
  } else if constexpr (is_functor_v<std::bit_and, Op>) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(~T(0));
    else
      return std::nullopt;
  } else if constexpr (std::is_same_v<Op, MPI_Op>) {
    // A handle is known at run time only.
    if (op == MPI_SUM || op == MPI_BOR || op == MPI_BXOR || op == MPI_LOR || op == MPI_LXOR)
      return T(0);
    if (op == MPI_PROD || op == MPI_LAND) return T(1);
    if (op == MPI_MAX) return std::numeric_limits<T>::lowest();
    if (op == MPI_MIN) return std::numeric_limits<T>::max();
    if constexpr (std::is_integral_v<T>)
      if (op == MPI_BAND) return static_cast<T>(~T(0));
    return std::nullopt;
  } else {
    return std::nullopt;  // a user op
  }
}

// The storage of an omitted values_on_rank_0: its slot applies the identity
// of the op to an in-place buffer once the call completes (finish: after a
// blocking call, at wait() or test() of a nonblocking or persistent one).
struct rank_0_identity {
  template <auto Id, bool Returned>
  static auto omitted_slot();
};

// Sets n elements at data to rank 0's result: the values given, or the op's identity.
template <typename T, typename Op, typename Values>
void set_rank_0_result(T* data, std::size_t n, const Op& op, const Values& values,
                       const char* call) {
  using V = typename Values::object_type;
  if constexpr (std::is_same_v<V, rank_0_identity>) {
    if (const std::optional<T> identity = op_identity<T>(op.get())) std::fill_n(data, n, *identity);
  } else if constexpr (is_buffer_v<V>) {
    NAMPI_ASSERT(values.size() == n, "%s: values_on_rank_0 holds %zu values, the result %zu", call,
                 static_cast<std::size_t>(values.size()), n);
    std::copy(values.data(), values.data() + std::min(n, values.size()), data);
  } else {
    std::fill_n(data, n, static_cast<T>(values.get()));  // one value for every element
  }
}

template <auto Id>
class rank_0_identity_slot {
 public:
  using object_type = rank_0_identity;
  static constexpr auto id = Id;
  static constexpr bool computed = true;
  static constexpr bool returned = false;

  const object_type& get() const { return tag_; }
  // exscan in place, at rank 0: its buffer is the call's input until it completes.
  void set_after_completion(std::size_t count) {
    pending_ = true;
    count_ = count;
  }

  template <typename Slots>
  void finish(const Slots& slots) {
    constexpr std::size_t buffer = slot_index<param_id::send_recv_buf, Slots>();
    constexpr std::size_t op = slot_index<param_id::op, Slots>();
    if constexpr (buffer < Slots::size && op < Slots::size) {
      if (!pending_) return;  // not rank 0, or not in place
      set_rank_0_result(pick<buffer>(slots).data(), count_, pick<op>(slots), *this, "exscan");
    }
  }

 private:
  object_type tag_{};
  bool pending_ = false;
  std::size_t count_ = 0;
};

template <auto Id, bool Returned>
auto rank_0_identity::omitted_slot() {
  return rank_0_identity_slot<Id>{};
}

}  // namespace nampi::detail

namespace nampi::infer {

using detail::call_context;

// exscan's receive buffer: room for count elements and, at rank 0 (whose
// receive buffer MPI never writes), values_on_rank_0 or the op's identity,
// set before the call.
template <typename Ctx, typename Out, typename Count, typename Op, typename Values>
void exscan_recv(Out&& out, const Ctx& ctx, const Count& count, const Op& op,
                 const Values& values) {
  size_count(out, ctx, count);
  // (count elements of the buffer's own type: a datatype the caller gives may be another)
  if (ctx.rank == 0 && out.size() >= static_cast<std::size_t>(count.get()))
    detail::set_rank_0_result(out.data(), static_cast<std::size_t>(count.get()), op, values,
                              ctx.call);
}

// exscan_single's value at rank 0, likewise.
template <typename Ctx, typename Out, typename Op, typename Values>
void exscan_recv_single(Out&& out, const Ctx& ctx, const Op& op, const Values& values) {
  if (ctx.rank == 0) detail::set_rank_0_result(out.data(), 1, op, values, ctx.call);
}

// exscan in place: rank 0's buffer is its input, so its identity is set once
// the call completes (by the values_on_rank_0 slot; for a persistent call at
// each completion, as the other ranks' buffers are overwritten with results).
template <typename Ctx, typename Out, typename Count, typename Op, typename Values>
void exscan_in_place(Out&& out, const Ctx& ctx, const Count& count, const Op&, Values& values) {
  size_count(out, ctx, count);  // the buffer holds count elements (its resize policy)
  constexpr bool omitted = std::is_same_v<typename Values::object_type, detail::rank_0_identity>;
  static_assert(omitted,
                "nampi: exscan (in place): values_on_rank_0 cannot be given in place (rank 0's "
                "buffer is the call's input); pass send_buf and recv_buf instead");
  if constexpr (omitted)  // (given, only the message above: no second error)
    if (ctx.rank == 0) values.set_after_completion(static_cast<std::size_t>(count.get()));
}

}  // namespace nampi::infer
