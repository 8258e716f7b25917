// What MPI reads or writes stays inside the caller's memory.
//
// A call hands MPI a buffer, a count (or counts and displacements) and a
// datatype. Where nampi computed any of them (an inferred count, a probed size,
// the number of ranks, the datatype's extent), it checks in every build that
// the datatype's elements fit the buffer's bytes and throws usage_error before
// MPI runs; a count and datatype the caller gave are checked too, unless the
// program defines NAMPI_TRUST_GIVEN_SIZES (error.hpp: check_given_sizes). Sizes are
// compared in bytes: a datatype the caller gives may have another extent than
// the buffer's element type.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/datatype.hpp"
#include "nampi/detail/buffer_kind.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/parameter.hpp"
#include "nampi/types.hpp"

namespace nampi::detail {

// The bytes n elements of a type slot's datatype touch in a buffer of E. A
// computed type slot holds the buffer's own datatype (type_of), whose elements
// are sizeof(E) apart: known at compile time. A nampi::datatype knows its
// extents; a C handle other than E's own datatype is asked (two local MPI calls).
template <typename E, typename TypeSlot>
std::pair<MPI_Aint, MPI_Aint> type_span(const TypeSlot& type, std::size_t n) {
  const auto own = std::pair<MPI_Aint, MPI_Aint>{0, static_cast<MPI_Aint>(n * sizeof(E))};
  if constexpr (TypeSlot::computed) {
    return own;
  } else if constexpr (requires { type.get().span(n); }) {
    return type.get().span(n);
  } else {
    const MPI_Datatype t = c_value(type.get());
    if (t == mpi_datatype<E>()) return own;
    if (t == MPI_DATATYPE_NULL) return {0, 0};  // not a datatype: the MPI call reports it
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, t, &lb, &extent);
    call_mpi("MPI_Type_get_true_extent", MPI_Type_get_true_extent, t, &true_lb, &true_extent);
    return element_span(true_lb, true_extent, extent, n);
  }
}

// A buffer the call writes, as a resize rule sees it: in elements of the
// datatype MPI writes with. resize_for(n) makes room for the bytes of n such
// elements (rounded up to whole elements of the buffer).
template <typename Slot, typename TypeSlot>
class typed_target {
 public:
  typed_target(Slot& slot, const TypeSlot& type) noexcept : slot_(&slot), type_(&type) {}

  template <bool Always>
  static constexpr bool does_nothing_for = resize_does_nothing<Slot, Always>;

  // The buffer itself, in elements of its own type.
  auto* data() { return slot_->data(); }
  std::size_t size() const { return slot_->size(); }

  template <bool Always>
  [[gnu::always_inline]] void resize_for(std::size_t n, const char* call,
                                         size_check<Always> check) {
    if constexpr (does_nothing_for<Always>) {
      return;
    } else if constexpr (TypeSlot::computed) {
      slot_->resize_for(n, call, check);
    } else {
      using E = slot_element_t<Slot>;
      // Plain variables, not a structured binding: clang before 16 cannot capture
      // one in NAMPI_CHECK's lambda.
      const auto span = type_span<E>(*type_, n);
      const MPI_Aint begin = span.first, end = span.second;
      NAMPI_CHECK(begin >= 0, "%s: '%s' reaches before the start of '%s'", call,
                  param_name(TypeSlot::id), param_name(Slot::id));
      slot_->resize_for((static_cast<std::size_t>(end) + sizeof(E) - 1) / sizeof(E), call, check);
    }
  }

 private:
  Slot* slot_;
  const TypeSlot* type_;
};

template <typename Slot, typename TypeSlot>
typed_target<Slot, TypeSlot> typed(Slot& slot, const TypeSlot& type) noexcept {
  return {slot, type};
}

// Before the MPI call: count elements of the datatype (partitions x count for a
// partitioned call, peers x count for a count per rank or neighbour; none for 0 peers)
// lie inside the buffer.
// Nothing to do when both are computed (a count of the buffer's own elements,
// or a buffer its resize rule sized). A computed count with a datatype the
// caller gave is checked always; a count the caller gave unless
// NAMPI_TRUST_GIVEN_SIZES (a C handle other than the element's own is asked for
// its extents: two local MPI calls).
template <typename Buffer, typename Count, typename TypeSlot>
[[gnu::always_inline]] inline void check_fits(const char* call, const Buffer& buffer,
                                              const Count& count, const TypeSlot& type,
                                              int partitions = 1) {
  if constexpr (!(Count::computed && TypeSlot::computed)) {
    constexpr bool always = Count::computed;
    if constexpr (always || check_given_sizes) {
      using E = slot_element_t<Buffer>;
      NAMPI_CHECK(partitions >= 0, "%s: partitions must be positive, got %d", call, partitions);
      const auto n = static_cast<std::size_t>(count.get()) * static_cast<std::size_t>(partitions);
      const auto span = type_span<E>(type, n);  // not a structured binding, as above
      const MPI_Aint begin = span.first, end = span.second;
      const auto bytes = static_cast<MPI_Aint>(buffer.size() * sizeof(E));
      NAMPI_CHECK(begin >= 0 && end <= bytes,
                  "%s: %zu elements of '%s' span bytes [%lld, %lld), but '%s' holds %lld %s", call,
                  n, param_name(TypeSlot::id), static_cast<long long>(begin),
                  static_cast<long long>(end), param_name(Buffer::id),
                  static_cast<long long>(bytes), bytes == 1 ? "byte" : "bytes");
    }
  }
}

// How the elements of a type slot's datatype lie in a buffer of E: the first one's bytes
// [true_lb, true_lb + true_extent), each next one extent further.
struct element_layout {
  MPI_Aint true_lb;
  MPI_Aint true_extent;
  MPI_Aint extent;
};
// The layout of a datatype handle's elements in a buffer of E: the element's own datatype
// without an MPI call, another one asked for its extents (two local MPI calls).
template <typename E>
element_layout layout_of_handle(MPI_Datatype t) {
  constexpr element_layout own{0, static_cast<MPI_Aint>(sizeof(E)),
                               static_cast<MPI_Aint>(sizeof(E))};
  if (t == mpi_datatype<E>()) return own;
  if (t == MPI_DATATYPE_NULL) return {0, 0, 0};  // not a datatype: the MPI call reports it
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, t, &lb, &extent);
  call_mpi("MPI_Type_get_true_extent", MPI_Type_get_true_extent, t, &true_lb, &true_extent);
  return {true_lb, true_extent, extent};
}

template <typename E, typename TypeSlot>
element_layout layout_of(const TypeSlot& type) {
  constexpr element_layout own{0, static_cast<MPI_Aint>(sizeof(E)),
                               static_cast<MPI_Aint>(sizeof(E))};
  if constexpr (TypeSlot::computed) {
    return own;
  } else if constexpr (requires { type.get().true_extent(); }) {
    return {type.get().true_lb(), type.get().true_extent(), type.get().extent()};
  } else {
    return layout_of_handle<E>(c_value(type.get()));
  }
}

#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_block_outside(
    const char* call, const char* buffer, const char* peer, std::size_t index, long long count,
    long long displ, long long begin, long long end, long long bytes);
#else
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_block_outside(
    const char* call, const char* buffer, const char* peer, std::size_t index, long long count,
    long long displ, long long begin, long long end, long long bytes) {
  throw_usage_error(
      "%s: the block of %s %zu in '%s' (%lld elements at displacement %lld) spans bytes "
      "[%lld, %lld), but '%s' holds %lld %s",
      call, peer, index, buffer, count, displ, begin, end, buffer, bytes,
      bytes == 1 ? "byte" : "bytes");
}
#endif

// The block of peer `index`: count elements of `layout` from byte `at` lie inside the buffer's
// `bytes` (in wide integers: no product can overflow); else the usage_error naming it.
__extension__ using wide_int = __int128;
template <typename Count, typename Displ>
inline void check_block(const char* call, const char* buffer, const char* peer, std::size_t index,
                        Count count, Displ displ, wide_int at, const element_layout& layout,
                        wide_int bytes) {
  const auto c = static_cast<wide_int>(count);
  if (c == 0) return;
  const wide_int step = (c - 1) * layout.extent;
  const wide_int begin = at + layout.true_lb + (step < 0 ? step : 0);
  const wide_int end = at + layout.true_lb + layout.true_extent + (step > 0 ? step : 0);
  if (c < 0 || begin < 0 || end > bytes) [[unlikely]]
    throw_block_outside(call, buffer, peer, index, static_cast<long long>(count),
                        static_cast<long long>(displ), static_cast<long long>(begin),
                        static_cast<long long>(end), static_cast<long long>(bytes));
}

// The blocks of check_blocks_fit (below) checked one by one in wide integers, in a buffer of
// `size` elements of `own` bytes each: where they are not the buffer's own elements, or where
// one lies outside (it reports the first). Out of line: its code depends only on the arrays'
// element types, so one copy serves every instance of the calls in a unit (each instance
// compiling its own loop in wide integers and its throw cost it about 0.1 G compiler
// instructions; bench/README.md), and the library compiles the one for int arrays
// (NAMPI_LIBRARY_INSTANCE).
template <typename Count, typename Displ>
[[gnu::noinline]] void check_blocks_inside(const char* call, const char* buffer, const char* peer,
                                           const Count* count, const Displ* displ,
                                           std::size_t peers, std::size_t size, MPI_Aint own,
                                           const element_layout& layout) {
  const wide_int bytes = static_cast<wide_int>(size) * static_cast<wide_int>(own);
  for (std::size_t i = 0; i < peers; ++i)
    check_block(call, buffer, peer, i, count[i], displ[i],
                static_cast<wide_int>(displ[i]) * layout.extent, layout, bytes);
}
#if NAMPI_LIBRARY_INSTANCES
NAMPI_LIBRARY_INSTANCE void check_blocks_inside<int, int>(const char*, const char*, const char*,
                                                          const int*, const int*, std::size_t,
                                                          std::size_t, MPI_Aint,
                                                          const element_layout&);
#endif

// Before the MPI call: the blocks MPI reads of a buffer, one per peer (counts[i] elements of
// the datatype at displacement displs[i], counted in its extent: alltoallv's and scatterv's
// send blocks), lie inside it. Checked in every build where nampi computed the counts or
// the displacements (an exclusive scan of the caller's counts), and where the caller gave
// both unless NAMPI_TRUST_GIVEN_SIZES. (A receive buffer's blocks are checked by its resize
// rule, size_extent.) One pass over the peers here for the buffer's own elements, the
// common case; the others, and a block outside, in check_blocks_inside.
template <typename Buffer, typename Counts, typename Displs, typename TypeSlot>
inline void check_blocks_fit(const char* call, const Buffer& buffer, const Counts& counts,
                             const Displs& displs, const TypeSlot& type, std::size_t peers,
                             const char* peer) {
  if constexpr (Counts::computed || Displs::computed || check_given_sizes) {
    using E = slot_element_t<Buffer>;
    const element_layout layout = layout_of<E>(type);
    const auto* count = counts.data();
    const auto* displ = displs.data();
    constexpr auto own = static_cast<MPI_Aint>(sizeof(E));
    if (layout.true_lb == 0 && layout.true_extent == own && layout.extent == own) {
      // Blocks [displ, displ + count) of elements, in unsigned 64-bit arithmetic (a negative
      // value becomes huge and fails).
      const auto size = static_cast<unsigned long long>(buffer.size());
      bool inside = true;
      for (std::size_t i = 0; i < peers; ++i) {
        const auto c = static_cast<unsigned long long>(static_cast<long long>(count[i]));
        const auto d = static_cast<unsigned long long>(static_cast<long long>(displ[i]));
        inside &= c == 0 || (c <= size && d <= size - c);
      }
      if (inside) [[likely]]
        return;
    }
    constexpr const char* name = param_name(Buffer::id);
    check_blocks_inside(call, name, peer, count, displ, peers,
                        static_cast<std::size_t>(buffer.size()), own, layout);
  }
}

// Before the MPI call: the block of each peer in a buffer MPI reads or writes with a
// datatype per peer (MPI_Alltoallw's and MPI_Neighbor_alltoallw's buffers: counts[i]
// elements of types[i] at byte displacement displs[i]) lies inside it. The caller gives all
// of them: checked unless NAMPI_TRUST_GIVEN_SIZES. A datatype other than the buffer's own
// element's is asked for its extents (two local MPI calls, once per run of equal handles).
template <typename Buffer, typename Counts, typename Displs, typename Types>
inline void check_typed_blocks_fit(const char* call, const Buffer& buffer, const Counts& counts,
                                   const Displs& displs, const Types& types, std::size_t peers,
                                   const char* peer) {
  if constexpr (Counts::computed || Displs::computed || Types::computed || check_given_sizes) {
    using E = slot_element_t<Buffer>;
    const wide_int bytes = static_cast<wide_int>(buffer.size()) * static_cast<wide_int>(sizeof(E));
    const auto* count = counts.data();
    const auto* displ = displs.data();
    const auto* type = types.data();
    MPI_Datatype known = mpi_datatype<E>();
    element_layout layout = layout_of_handle<E>(known);
    for (std::size_t i = 0; i < peers; ++i) {
      if (count[i] == 0) continue;
      if (const MPI_Datatype t = c_value(type[i]); t != known) {
        layout = layout_of_handle<E>(t);
        known = t;
      }
      check_block(call, param_name(Buffer::id), peer, i, count[i], displ[i],
                  static_cast<wide_int>(displ[i]), layout, bytes);  // displacements in bytes
    }
  }
}

// The same for a count in the buffer's own elements (a window's size, win_create): checked
// where nampi computed it, and a given one unless NAMPI_TRUST_GIVEN_SIZES.
template <typename Buffer, typename Count>
[[gnu::always_inline]] inline void check_fits(const char* call, const Buffer& buffer,
                                              const Count& count) {
  if constexpr (Count::computed || check_given_sizes) {
    const auto n = static_cast<long long>(count.get());
    NAMPI_CHECK(n >= 0 && static_cast<unsigned long long>(n) <= buffer.size(),
                "%s: '%s' is %lld elements, but '%s' holds %zu", call, param_name(Count::id), n,
                param_name(Buffer::id), static_cast<std::size_t>(buffer.size()));
  }
}

// A buffer of which MPI takes one element (fetch_and_op, compare_and_swap) holds one:
// checked in every build, as nampi, not the caller, gives MPI that count.
template <typename Buffer>
[[gnu::always_inline]] inline void check_fits(const char* call, const Buffer& buffer) {
  NAMPI_CHECK(buffer.size() >= 1, "%s: '%s' is empty, but MPI takes one element of it", call,
              param_name(Buffer::id));
}

// An array of one entry per rank (or neighbour): MPI reads n entries, so it
// must hold them, and a longer one is read only that far. Checked in every
// build: a C array has no length for MPI to check.
template <typename Slot>
[[gnu::always_inline]] inline void check_length(const char* call, Slot& slot, std::size_t n,
                                                const char* peers) {
  if (slot.size() < n) [[unlikely]]
    throw_short_array(call, param_name(Slot::id), slot.size(), n, peers);
  slot.limit(n);
}

// Buffers A and B hold the same element type, or one of them is not given
// (created by the call with the other's element type) or serialized.
template <auto A, auto B, typename... Args>
constexpr bool same_element() {
  using EA = typename decltype(element_of_param<A, Args...>())::type;
  using EB = typename decltype(element_of_param<B, Args...>())::type;
  return std::is_void_v<EA> || std::is_void_v<EB> || std::is_same_v<EA, EB>;
}

}  // namespace nampi::detail
