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
#include <vector>

#include "nampi/detail/infer.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/ops.hpp"

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

// A type slot that stands for the buffer's own datatype (exscan_single's one value).
struct own_type_slot {
  static constexpr bool computed = true;
};

// Whether a type slot holds the datatype of E itself (a computed one is type_of the buffer):
// then count elements of it are count contiguous values of E.
template <typename E, typename TypeSlot>
bool own_datatype(const TypeSlot& type) {
  if constexpr (TypeSlot::computed)
    return true;
  else
    return c_value(type.get()) == mpi_datatype<E>();
}

// The values of E that count elements of the datatype span from a buffer's start (rounded
// up); more than any buffer holds if the datatype reaches before that start.
template <typename E, typename TypeSlot>
std::size_t values_spanned(const TypeSlot& type, std::size_t count) {
  if (own_datatype<E>(type)) return count;
  const auto span = type_span<E>(type, count);
  if (span.first < 0) return std::numeric_limits<std::size_t>::max();
  return (static_cast<std::size_t>(span.second) + sizeof(E) - 1) / sizeof(E);
}

// Copies count elements of datatype t between two buffers of E laid out alike: only what the
// datatype covers (a struct type's padding, a column's neighbours stay as they are). MPI does
// it, locally: MPI_Pack_size, MPI_Pack, MPI_Unpack (a packed form the same datatype reads back).
template <typename E>
void copy_by_datatype(const E* from, E* to, std::size_t count, MPI_Datatype t) {
  const int n = static_cast<int>(count);  // checked to fit by check_rank_0_values
  int bytes = 0;
  call_mpi("MPI_Pack_size", MPI_Pack_size, n, t, MPI_COMM_SELF, &bytes);
  std::vector<char> packed(static_cast<std::size_t>(bytes));
  int position = 0;
  call_mpi("MPI_Pack", MPI_Pack, static_cast<const void*>(from), n, t,
           static_cast<void*>(packed.data()), bytes, &position, MPI_COMM_SELF);
  position = 0;
  call_mpi("MPI_Unpack", MPI_Unpack, static_cast<const void*>(packed.data()), bytes, &position,
           static_cast<void*>(to), n, t, MPI_COMM_SELF);
}

// The same for the datatype of a type slot: E's own is a plain copy.
template <typename E, typename TypeSlot>
void copy_elements(const E* from, E* to, std::size_t count, const TypeSlot& type) {
  if constexpr (!TypeSlot::computed) {
    if (!own_datatype<E>(type)) return copy_by_datatype(from, to, count, c_value(type.get()));
  }
  std::copy(from, from + count, to);
}

// values_on_rank_0 given as a buffer is rank 0's result laid out like the receive buffer, so
// it holds what count elements of the datatype span (of another element type, only with E's
// own datatype: converted value by value). Checked on every rank, before the call
// communicates and in every build (rank 0 reads that far): each rank checks its own argument
// by the same rule, so a usage error leaves no rank waiting in MPI_Exscan for rank 0.
template <typename E, typename TypeSlot, typename Values>
void check_rank_0_values(const Values& values, std::size_t count, const TypeSlot& type,
                         const char* call) {
  using V = typename Values::object_type;
  if constexpr (is_buffer_v<V>) {
    const bool own = own_datatype<E>(type);
    if constexpr (!std::is_same_v<element_t<V>, E>)
      NAMPI_CHECK(own,
                  "%s: 'values_on_rank_0' holds another element type than 'recv_buf', whose "
                  "datatype is not its element's own: give it the element type of 'recv_buf'",
                  call);
    NAMPI_CHECK(own || count <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
                "%s: 'values_on_rank_0' with a derived datatype takes at most %d elements", call,
                std::numeric_limits<int>::max());
    const std::size_t needed = values_spanned<E>(type, count);
    NAMPI_CHECK(needed != std::numeric_limits<std::size_t>::max(),
                "%s: '%s' reaches before the start of 'values_on_rank_0'", call,
                param_name(TypeSlot::id));
    NAMPI_CHECK(values.size() >= needed,
                "%s: 'values_on_rank_0' holds %zu values, %zu needed (rank 0's result, laid out "
                "like 'recv_buf')",
                call, static_cast<std::size_t>(values.size()), needed);
  }
}

// Sets count elements of the datatype at data to rank 0's result: the values given, or the
// op's identity (nothing for a user op, which has none).
template <typename E, typename TypeSlot, typename Op, typename Values>
void set_rank_0_result(E* data, std::size_t count, const TypeSlot& type, const Op& op,
                       const Values& values) {
  using V = typename Values::object_type;
  if constexpr (is_buffer_v<V>) {
    if constexpr (std::is_same_v<element_t<V>, E>)
      copy_elements(values.data(), data, count, type);
    else
      std::copy(values.data(), values.data() + count, data);  // E's own datatype (checked)
  } else {
    std::optional<E> value;
    if constexpr (std::is_same_v<V, rank_0_identity>)
      value = op_identity<E>(op.get());
    else
      value = static_cast<E>(values.get());  // one value for every element
    if (!value) return;
    if constexpr (!TypeSlot::computed) {
      if (!own_datatype<E>(type)) {
        // The value at each of the datatype's positions: copied from a buffer full of it.
        const std::vector<E> filled(values_spanned<E>(type, count), *value);
        copy_by_datatype(filled.data(), data, count, c_value(type.get()));
        return;
      }
    }
    std::fill_n(data, count, *value);
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
    constexpr std::size_t type = slot_index<param_id::send_recv_type, Slots>();
    constexpr std::size_t op = slot_index<param_id::op, Slots>();
    if constexpr (buffer < Slots::size && type < Slots::size && op < Slots::size) {
      if (!pending_) return;  // not rank 0, or not in place
      auto& data = pick<buffer>(slots);
      using E = std::remove_pointer_t<decltype(data.data())>;
      // (as exscan_recv: a too large count the caller gave leaves the buffer alone)
      if (data.size() >= values_spanned<E>(pick<type>(slots), count_))
        set_rank_0_result(data.data(), count_, pick<type>(slots), pick<op>(slots), *this);
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
template <typename Ctx, typename Out, typename Count, typename Type, typename Op, typename Values>
void exscan_recv(Out&& out, const Ctx& ctx, const Count& count, const Type& type, const Op& op,
                 const Values& values) {
  using E = std::remove_pointer_t<decltype(out.data())>;
  const auto n = static_cast<std::size_t>(count.get());
  detail::check_rank_0_values<E>(values, n, type, ctx.call);
  size_count(out, ctx, count);
  // The buffer holds the result unless a count the caller gave is too large (unchecked
  // without assertions, as MPI would write past it too): then nampi does not write.
  if (ctx.rank == 0 && out.size() >= detail::values_spanned<E>(type, n))
    detail::set_rank_0_result(out.data(), n, type, op, values);
}

// exscan_single's value at rank 0, likewise (one value: no layout).
template <typename Ctx, typename Out, typename Op, typename Values>
void exscan_recv_single(Out&& out, const Ctx& ctx, const Op& op, const Values& values) {
  if (ctx.rank == 0) detail::set_rank_0_result(out.data(), 1, detail::own_type_slot{}, op, values);
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
