// The inference rules of spec/rules.yaml: how a call computes a parameter the
// caller omitted (or asked back with *_out()). Each rule fills an output slot
// and issues exactly the MPI calls rules.yaml lists for it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/buffer_checks.hpp"
#include "nampi/detail/call_context.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"
#include "nampi/types.hpp"

namespace nampi::detail {

// An MPI call on the communicator of `ctx`, from a generated body or a rule:
// here MPI's own function. Function is a template argument so that another
// backend can tell the calls apart: a range communicator's context (declared
// here, defined in nampi/range_communicator.hpp) runs that backend's version.
template <auto Function, typename... Args>
inline void call_mpi(const call_context&, const char* name, Args... args) {
  check_mpi_code(name, Function(args...));
}
struct range_context;
template <auto Function, typename... Args>
void call_mpi(const range_context& ctx, const char* name, Args... args);

// What the rules and the MPI calls of a call on a window (nampi/window.hpp) need: the call's
// name for messages, and the window.
struct window_context {
  using request_type = MPI_Request;  // rput, rget, ...: a request per call
  const char* call;
  MPI_Win win;
};
template <auto Function, typename... Args>
inline void call_mpi(const window_context&, const char* name, Args... args) {
  check_mpi_code(name, Function(args...));
}

// The same for a call on a file (nampi/file.hpp).
struct file_context {
  using request_type = MPI_Request;  // iwrite_at, iread_at, ...: a request per call
  const char* call;
  MPI_File fh;
};
template <auto Function, typename... Args>
inline void call_mpi(const file_context&, const char* name, Args... args) {
  check_mpi_code(name, Function(args...));
}

// The number of in- and out-neighbours of this process in the communicator's
// topology: MPI_Topo_test, then one call that depends on the kind of topology
// (spec/rules.yaml: topology_calls), the first time a call asks; later asks of the same
// call find them in its context. A cartesian topology has two neighbours per
// dimension each way (MPI_PROC_NULL beyond a non-periodic border counts too).
struct neighbor_counts {
  int in;
  int out;
};

neighbor_counts ask_neighbor_counts(const call_context& ctx);

inline neighbor_counts topology_neighbor_counts(const call_context& ctx) {
  if (ctx.neighbors_in < 0) {
    const neighbor_counts asked = ask_neighbor_counts(ctx);
    ctx.neighbors_in = asked.in;
    ctx.neighbors_out = asked.out;
  }
  return {ctx.neighbors_in, ctx.neighbors_out};
}

inline neighbor_counts ask_neighbor_counts(const call_context& ctx) {
  int kind = MPI_UNDEFINED;
  call_mpi("MPI_Topo_test", MPI_Topo_test, ctx.comm, &kind);
  if (kind == MPI_CART) {
    int ndims = 0;
    call_mpi("MPI_Cartdim_get", MPI_Cartdim_get, ctx.comm, &ndims);
    return {2 * ndims, 2 * ndims};
  }
  if (kind == MPI_GRAPH) {
    int count = 0;
    call_mpi("MPI_Graph_neighbors_count", MPI_Graph_neighbors_count, ctx.comm, ctx.rank, &count);
    return {count, count};
  }
  NAMPI_CHECK(kind == MPI_DIST_GRAPH,
              "%s: the communicator has no topology (create one with cart_create, "
              "graph_create or dist_graph_create(_adjacent))",
              ctx.call);
  int in = 0, out = 0, weighted = 0;
  call_mpi("MPI_Dist_graph_neighbors_count", MPI_Dist_graph_neighbors_count, ctx.comm, &in, &out,
           &weighted);
  return {in, out};
}

// The parameter a slot holds, as the caller wrote it: what a rule's message names (one rule
// serves several parameters, e.g. size_count sizes recv_buf or bcast's send_recv_buf).
template <typename Slot>
constexpr const char* name_of(const Slot&) {
  return param_name(std::remove_cvref_t<Slot>::id);
}

// infer::exclusive_scan's loop (below): n counts into their displacements. Out of line: its
// code depends only on the arrays' element types, so one copy serves every instance of the
// calls in a unit (bench/README.md, "Where compile time goes"), and the library compiles the
// one for int arrays (NAMPI_LIBRARY_INSTANCE).
template <typename Displ, typename Count>
[[gnu::noinline]] void scan_counts(const char* call, const char* counts_name, const Count* count,
                                   std::size_t n, Displ* displs) {
  constexpr auto bound = static_cast<unsigned long long>(std::numeric_limits<Displ>::max());
  static_assert((bound & (bound + 1)) == 0, "the largest Displ is 2^k - 1");
  MPI_Count next = 0;  // int counts may sum beyond an int
  for (std::size_t i = 0; i < n; ++i) {
    const auto this_count = static_cast<MPI_Count>(count[i]);
    if ((static_cast<unsigned long long>(next) | static_cast<unsigned long long>(this_count)) >
        bound) [[unlikely]]
      throw_bad_displacements(call, counts_name, next < 0 || this_count < 0, next);
    displs[i] = static_cast<Displ>(next);
    next += this_count;
  }
}
#if NAMPI_LIBRARY_INSTANCES
NAMPI_LIBRARY_INSTANCE void scan_counts<int, int>(const char*, const char*, const int*, std::size_t,
                                                  int*);
#endif

}  // namespace nampi::detail

namespace nampi::infer {

using detail::call_context;
using detail::name_of;
// Size checks of values nampi computed (on in every build) or only of values the
// caller gave (with the assertion level): see error.hpp.
using always_checked = detail::size_check<true>;
template <typename... Slots>
using checked_if_computed = detail::size_check<(false || ... || Slots::computed)>;

// --- local rules (no MPI calls) ---

// A constant default (root 0, tag 0, MPI_ANY_SOURCE, ...).
template <typename Ctx, typename Out, typename Value>
void constant(Out& out, const Ctx&, const Value& value) {
  out.set(value);
}

// The number of elements of a buffer.
template <typename Ctx, typename Out, typename Buffer>
void size_of(Out& out, const Ctx& ctx, const Buffer& buffer) {
  detail::set_count(out, buffer.size(), ctx.call, name_of(out));
}

// The number of elements of a buffer divided evenly among the ranks.
template <typename Ctx, typename Out, typename Buffer>
void size_of_per_rank(Out& out, const Ctx& ctx, const Buffer& buffer) {
  NAMPI_ASSERT(buffer.size() % static_cast<std::size_t>(ctx.size) == 0,
               "%s: the buffer size is not a multiple of the communicator size", ctx.call);
  detail::set_count(out, buffer.size() / static_cast<std::size_t>(ctx.size), ctx.call,
                    name_of(out));
}

// The number of elements of a buffer divided evenly among the partitions of
// a partitioned call (MPI's count is per partition).
template <typename Ctx, typename Out, typename Buffer, typename Partitions>
void size_of_per_partition(Out& out, const Ctx& ctx, const Buffer& buffer,
                           const Partitions& partitions) {
  const int n = partitions.get();
  NAMPI_CHECK(n > 0, "%s: partitions must be positive, got %d", ctx.call, n);
  NAMPI_ASSERT(buffer.size() % static_cast<std::size_t>(n) == 0,
               "%s: the buffer size %zu is not a multiple of partitions (%d)", ctx.call,
               static_cast<std::size_t>(buffer.size()), n);
  detail::set_count(out, buffer.size() / static_cast<std::size_t>(n), ctx.call, name_of(out));
}

// The builtin or byte datatype of a buffer's elements.
template <typename Ctx, typename Out, typename Buffer>
void type_of(Out& out, const Ctx&, const Buffer&) {
  out.set(mpi_datatype<detail::slot_element_t<Buffer>>());
}

// The size in bytes of a buffer's elements (a window's displacement unit).
template <typename Ctx, typename Out, typename Buffer>
void element_size_of(Out& out, const Ctx&, const Buffer&) {
  out.set(static_cast<int>(sizeof(detail::slot_element_t<Buffer>)));
}

// The same value as another parameter. A count goes into a type the caller may have chosen
// (recv_count_out(c) with a small c), checked to fit as every count nampi stores
// (set_count); a datatype as it is.
template <typename Ctx, typename Out, typename Source>
void same_as(Out& out, const Ctx& ctx, const Source& source) {
  const auto value = detail::c_value(source.get());
  if constexpr (std::is_integral_v<decltype(value)> &&
                std::is_integral_v<typename Out::object_type>)
    detail::set_count(out, value, ctx.call, name_of(out));
  else
    out.set(value);
}

// As same_as at the root. Elsewhere MPI ignores the value: a caller's variable
// (recv_count_out(n)) is left as it was, the call's own stays 0.
template <typename Ctx, typename Out, typename Source, typename Root>
void same_as_at_root(Out& out, const Ctx& ctx, const Source& source, const Root& root) {
  if (ctx.rank == root.get()) same_as(out, ctx, source);
}

// Displacements as the exclusive prefix sum of counts. Each displacement must lie in
// [0, the largest Displ] and each count must not be negative: a negative count can hide
// behind non-negative prefixes ({5, -2, 1} scans to {0, 5, 3}, and a buffer sized from the
// last block would hold 4 elements for the first block's 5). Both in one unsigned compare:
// the largest Displ is 2^k - 1, so the OR of the two stays within it exactly when both do,
// and a negative value converts to one above it. With no negative count the last block
// ends last, as size_extent relies on. MPI writes through the receive displacements.
// The scan is nampi::detail::scan_counts, out of line (above).
template <typename Ctx, typename Out, typename Counts>
void exclusive_scan(Out& out, const Ctx& ctx, const Counts& counts) {
  const std::size_t n = counts.size();
  out.resize_for(n, ctx.call, always_checked{});
  constexpr const char* counts_name = param_name(Counts::id);
  detail::scan_counts(ctx.call, counts_name, counts.data(), n, out.data());
}

// Room for every rank's block: up to max(displs[i] + counts[i]). Equals the
// sum of the counts when the displacements were computed, and stays safe when
// the caller's displacements leave gaps.
template <typename Ctx, typename Out, typename Counts, typename Displs>
void size_extent(Out&& out, const Ctx& ctx, const Counts& counts, const Displs& displs) {
  using check = checked_if_computed<Counts, Displs>;
  if constexpr (detail::resize_does_nothing<Out, check::always>)
    return;  // nothing to size or check
  // One array computed, one given: the given one is read as far as the computed one reaches.
  NAMPI_CHECK_IF(Counts::computed != Displs::computed, displs.size() == counts.size(),
                 "%s: '%s' and '%s' differ in length (%zu and %zu)", ctx.call,
                 param_name(Displs::id), param_name(Counts::id),
                 static_cast<std::size_t>(displs.size()), static_cast<std::size_t>(counts.size()));
  std::size_t end = 0;
  if constexpr (Displs::computed) {
    // The call computed the displacements as the exclusive scan of the counts
    // (every binding's rule for them): no gaps, the last block ends last.
    if (counts.size() != 0)
      end = static_cast<std::size_t>(displs.data()[counts.size() - 1]) +
            static_cast<std::size_t>(counts.data()[counts.size() - 1]);
  } else {
    for (std::size_t i = 0; i < counts.size(); ++i)
      end = std::max(end, static_cast<std::size_t>(displs.data()[i]) +
                              static_cast<std::size_t>(counts.data()[i]));
  }
  // Of counts and displacements the caller gave, a size plain MPI trusts too.
  out.resize_for(end, ctx.call, check{});
}

// A buffer of `count` elements.
template <typename Ctx, typename Out, typename Count>
void size_count(Out&& out, const Ctx& ctx, const Count& count) {
  out.resize_for(static_cast<std::size_t>(count.get()), ctx.call, checked_if_computed<Count>{});
}

// As size_count, except at the root, whose buffer holds the data sent.
template <typename Ctx, typename Out, typename Count, typename Root>
void size_count_except_root(Out&& out, const Ctx& ctx, const Count& count, const Root& root) {
  if (ctx.rank != root.get()) size_count(out, ctx, count);
}

// A buffer of `count` elements per rank (size * count).
template <typename Ctx, typename Out, typename Count>
void size_count_per_rank(Out&& out, const Ctx& ctx, const Count& count) {
  out.resize_for(static_cast<std::size_t>(count.get()) * static_cast<std::size_t>(ctx.size),
                 ctx.call, always_checked{});  // count times the ranks: a size nampi computed
}

// As size_count_per_rank at the root; nothing elsewhere.
template <typename Ctx, typename Out, typename Count, typename Root>
void size_count_per_rank_at_root(Out&& out, const Ctx& ctx, const Count& count, const Root& root) {
  if (ctx.rank == root.get()) size_count_per_rank(out, ctx, count);
}

// As size_extent at the root; nothing elsewhere.
template <typename Ctx, typename Out, typename Counts, typename Displs, typename Root>
void size_extent_at_root(Out&& out, const Ctx& ctx, const Counts& counts, const Displs& displs,
                         const Root& root) {
  if (ctx.rank == root.get()) size_extent(out, ctx, counts, displs);
}

// A parameter only the root needs: check it there, nothing to compute.
template <typename Ctx, typename Out, typename Root>
void required_at_root(Out&, const Ctx& ctx, const Root& root) {
  NAMPI_CHECK(ctx.rank != root.get(), "%s: this parameter is required at the root", ctx.call);
}

// As exclusive_scan, at the root only.
template <typename Ctx, typename Out, typename Counts, typename Root>
void exclusive_scan_at_root(Out& out, const Ctx& ctx, const Counts& counts, const Root& root) {
  if (ctx.rank == root.get()) exclusive_scan(out, ctx, counts);
}

// A copy of a single value.
template <typename Ctx, typename Out, typename Value>
void copy_of(Out& out, const Ctx&, const Value& value) {
  out.set(*value.data());
}

// At the root, the elements of a buffer divided evenly among the ranks. Elsewhere MPI
// ignores the count: a caller's variable (send_count_out(n)) is left as it was, the
// call's own stays 0.
template <typename Ctx, typename Out, typename Buffer, typename Root>
void size_of_per_rank_at_root(Out& out, const Ctx& ctx, const Buffer& buffer, const Root& root) {
  if (ctx.rank == root.get()) size_of_per_rank(out, ctx, buffer);
}

// Room for one element per rank.
template <typename Ctx, typename Out>
void size_ranks(Out&& out, const Ctx& ctx) {
  out.resize_for(static_cast<std::size_t>(ctx.size), ctx.call, always_checked{});
}

// Room for one element per rank, at the root only.
template <typename Ctx, typename Out, typename Root>
void size_ranks_at_root(Out&& out, const Ctx& ctx, const Root& root) {
  if (ctx.rank == root.get()) size_ranks(out, ctx);
}

// Room for count elements, at the root only.
template <typename Ctx, typename Out, typename Count, typename Root>
void size_count_at_root(Out&& out, const Ctx& ctx, const Count& count, const Root& root) {
  if (ctx.rank == root.get()) size_count(out, ctx, count);
}

// Room for this rank's entry of counts.
template <typename Ctx, typename Out, typename Counts>
void size_own_count(Out&& out, const Ctx& ctx, const Counts& counts) {
  NAMPI_CHECK(counts.size() >= static_cast<std::size_t>(ctx.size),
              "%s: '%s' needs one entry per rank", ctx.call, param_name(Counts::id));
  out.resize_for(static_cast<std::size_t>(counts.data()[ctx.rank]), ctx.call, always_checked{});
}

// The byte count of each value of a buffer serialized one value per rank
// (serialization.hpp), which must hold one value per rank: checked always,
// since a wrong count would read past the values (cheap next to serializing).
template <typename Ctx, typename Out, typename Buffer>
void serialized_counts(Out& out, const Ctx& ctx, const Buffer& buffer, const char* name) {
  const auto n = static_cast<std::size_t>(ctx.size);
  if (buffer.values() != n)
    throw usage_error(std::string("nampi: ") + ctx.call + ": serialized '" + name + "' holds " +
                      std::to_string(buffer.values()) + " values, one per rank (" +
                      std::to_string(n) + ") needed");
  out.resize_for(n, ctx.call, always_checked{});
  using To = detail::array_element_t<Out>;
  for (std::size_t i = 0; i < n; ++i)
    out.data()[i] = detail::narrow<To>(buffer.block_size(i), ctx.call, name_of(out),
                                       "the element type of the counts array");
}

// As serialized_counts at the root; nothing elsewhere (the others' values are not sent).
template <typename Ctx, typename Out, typename Buffer, typename Root>
void serialized_counts_at_root(Out& out, const Ctx& ctx, const Buffer& buffer, const char* name,
                               const Root& root) {
  if (ctx.rank == root.get()) serialized_counts(out, ctx, buffer, name);
}

// --- communicating rules ---

// Every rank's count, by one MPI_Allgather.
template <typename Ctx, typename Out, typename Count>
void allgather_counts(Out& out, const Ctx& ctx, const Count& count) {
  out.resize_for(static_cast<std::size_t>(ctx.size), ctx.call, always_checked{});
  using To = detail::array_element_t<Out>;
  const To mine = detail::narrow<To>(count.get(), ctx.call, name_of(count),
                                     "the element type of the counts array");
  detail::call_mpi<MPI_Allgather>(ctx, "MPI_Allgather", &mine, 1, mpi_datatype<To>(), out.data(), 1,
                                  mpi_datatype<To>(), ctx.comm);
}

// Every rank's count at the root, by one MPI_Gather.
template <typename Ctx, typename Out, typename Count, typename Root>
void gather_counts(Out& out, const Ctx& ctx, const Count& count, const Root& root) {
  const bool at_root = ctx.rank == root.get();
  if (at_root) out.resize_for(static_cast<std::size_t>(ctx.size), ctx.call, always_checked{});
  using To = detail::array_element_t<Out>;
  const To mine = detail::narrow<To>(count.get(), ctx.call, name_of(count),
                                     "the element type of the counts array");
  detail::call_mpi<MPI_Gather>(ctx, "MPI_Gather", &mine, 1, mpi_datatype<To>(),
                               at_root ? out.data() : nullptr, 1, mpi_datatype<To>(), root.get(),
                               ctx.comm);
}

// The counts every rank sends to me, by one MPI_Alltoall.
template <typename Ctx, typename Out, typename Counts>
void alltoall_counts(Out& out, const Ctx& ctx, const Counts& send_counts) {
  // A given send_counts was checked by the call (check_length), a computed one is one per rank.
  NAMPI_ASSERT(send_counts.size() == static_cast<std::size_t>(ctx.size),
               "%s: '%s' needs one entry per rank", ctx.call, param_name(Counts::id));
  out.resize_for(static_cast<std::size_t>(ctx.size), ctx.call, always_checked{});
  using To = detail::array_element_t<Out>;
  const auto mine = detail::counts_as<To>(send_counts, ctx.call, name_of(send_counts));
  detail::call_mpi<MPI_Alltoall>(ctx, "MPI_Alltoall", mine.data(), 1, mpi_datatype<To>(),
                                 out.data(), 1, mpi_datatype<To>(), ctx.comm);
}

// My share of the root's send_counts, by one MPI_Scatter.
template <typename Ctx, typename Out, typename Counts, typename Root>
void scatter_count(Out& out, const Ctx& ctx, const Counts& send_counts, const Root& root) {
  const bool at_root = ctx.rank == root.get();
  if (at_root)
    NAMPI_ASSERT(send_counts.size() == static_cast<std::size_t>(ctx.size),
                 "%s: '%s' needs one entry per rank", ctx.call,
                 param_name(Counts::id));  // the call checked a given one
  using From = detail::array_element_t<Counts>;
  From mine = 0;
  detail::call_mpi<MPI_Scatter>(ctx, "MPI_Scatter", at_root ? send_counts.data() : nullptr, 1,
                                mpi_datatype<From>(), &mine, 1, mpi_datatype<From>(), root.get(),
                                ctx.comm);
  detail::set_count(out, mine, ctx.call, name_of(out));
}

// The root's value of a count, by one MPI_Bcast.
template <typename Ctx, typename Out, typename Count, typename Root>
void bcast_count(Out& out, const Ctx& ctx, const Count& count, const Root& root) {
  MPI_Count value = ctx.rank == root.get() ? static_cast<MPI_Count>(count.get()) : 0;
  detail::call_mpi<MPI_Bcast>(ctx, "MPI_Bcast", &value, 1, MPI_COUNT, root.get(), ctx.comm);
  detail::set_count(out, value, ctx.call, name_of(out));
}

// The root's buffer size, by one MPI_Bcast.
template <typename Ctx, typename Out, typename Buffer, typename Root>
void bcast_size_of(Out& out, const Ctx& ctx, const Buffer& buffer, const Root& root) {
  MPI_Count value = ctx.rank == root.get() ? static_cast<MPI_Count>(buffer.size()) : 0;
  detail::call_mpi<MPI_Bcast>(ctx, "MPI_Bcast", &value, 1, MPI_COUNT, root.get(), ctx.comm);
  detail::set_count(out, value, ctx.call, name_of(out));
}

// A source or tag that is a wildcard (omitted, or MPI_ANY_SOURCE / MPI_ANY_TAG given),
// set to the matched message's, so that the data that follows comes from the same
// message's sender: another matching message may come first otherwise (Open MPI's
// wildcard receive need not take the one a wildcard probe saw).
template <typename Slot>
void pin_wildcard(Slot& slot, int wildcard, int matched) {
  if constexpr (Slot::computed)
    slot.set(matched);
  else if (std::cmp_equal(slot.get(), wildcard))  // a tag may be given as unsigned
    slot.pin(matched);
}

// The size of the peer's message, by one MPI_Sendrecv of the counts. A
// wildcard source or tag is pinned to the count message's, so that the data
// message comes from the same peer (which sends it right after its count).
template <typename Ctx, typename Out, typename Count, typename Dest, typename SendTag,
          typename Source, typename RecvTag>
void sendrecv_count(Out& out, const Ctx& ctx, const Count& send_count, const Dest& dest,
                    const SendTag& send_tag, Source& source, RecvTag& recv_tag) {
  const auto mine = static_cast<MPI_Count>(send_count.get());
  MPI_Count theirs = 0;
  MPI_Status status;
  detail::call_mpi<MPI_Sendrecv>(ctx, "MPI_Sendrecv", &mine, 1, MPI_COUNT, dest.get(),
                                 send_tag.get(), &theirs, 1, MPI_COUNT, source.get(),
                                 recv_tag.get(), ctx.comm, &status);
  pin_wildcard(source, MPI_ANY_SOURCE, status.MPI_SOURCE);
  pin_wildcard(recv_tag, MPI_ANY_TAG, status.MPI_TAG);
  detail::set_count(out, theirs, ctx.call, name_of(out));
}

// The size of the next matching message, by MPI_Probe + MPI_Get_count. A
// wildcard source or tag is pinned to the probed message, so that the
// receive that follows takes exactly that message.
template <typename Ctx, typename Out, typename Source, typename Tag, typename Type>
void probe_count(Out& out, const Ctx& ctx, Source& source, Tag& tag, const Type& type) {
  MPI_Status status;
  detail::call_mpi<MPI_Probe>(ctx, "MPI_Probe", source.get(), tag.get(), ctx.comm, &status);
  const MPI_Count count = detail::element_count(status, detail::c_value(type.get()));
  NAMPI_CHECK(count != MPI_UNDEFINED, "%s: message size is not a multiple of the datatype",
              ctx.call);
  pin_wildcard(source, MPI_ANY_SOURCE, status.MPI_SOURCE);
  pin_wildcard(tag, MPI_ANY_TAG, status.MPI_TAG);
  detail::set_count(out, count, ctx.call, name_of(out));
}

// The size of a matched message (mprobe/improbe) in elements of the receive type.
template <typename Ctx, typename Out, typename Message, typename Type>
void message_count(Out& out, const Ctx& ctx, const Message& message, const Type& type) {
  const MPI_Count count = detail::element_count(message.get().status, detail::c_value(type.get()));
  NAMPI_CHECK(count != MPI_UNDEFINED, "%s: message size is not a multiple of the datatype",
              ctx.call);
  detail::set_count(out, count, ctx.call, name_of(out));
}

// --- process topologies ---

// A balanced grid of the communicator's processes in ndims dimensions, by one MPI_Dims_create.
template <typename Ctx, typename Out, typename Ndims>
void dims_create(Out& out, const Ctx& ctx, const Ndims& ndims) {
  NAMPI_CHECK(ndims.get() >= 0, "%s: ndims is negative", ctx.call);
  const auto n = static_cast<std::size_t>(ndims.get());
  out.resize_for(n, ctx.call, always_checked{});
  std::fill(out.data(), out.data() + n,
            0);  // 0: MPI chooses (a caller's dims_out(v) may hold others)
  detail::call_mpi("MPI_Dims_create", MPI_Dims_create, ctx.size, ndims.get(), out.data());
}

// count zeros (false): e.g. no dimension periodic.
template <typename Ctx, typename Out, typename Count>
void all_false(Out& out, const Ctx& ctx, const Count& count) {
  NAMPI_CHECK(count.get() >= 0, "%s: negative count", ctx.call);
  const auto n = static_cast<std::size_t>(count.get());
  out.resize_for(n, ctx.call, always_checked{});
  std::fill(out.data(), out.data() + n, 0);
}

// This process's rank in the communicator, which the communicator knows already.
template <typename Out>
void own_rank(Out& out, const call_context& ctx) {
  out.set(ctx.rank);
}

// The number of dimensions of the communicator's cartesian grid (one MPI_Cartdim_get; MPI
// reports a communicator without one).
template <typename Out>
void cartdim(Out& out, const call_context& ctx) {
  int ndims = 0;
  detail::call_mpi("MPI_Cartdim_get", MPI_Cartdim_get, ctx.comm, &ndims);
  out.set(ndims);
}

// --- neighbourhood collectives: counts from the topology ---

// Room for count elements from every in-neighbour.
template <typename Ctx, typename Out, typename Count>
void size_count_per_in_neighbor(Out&& out, const Ctx& ctx, const Count& count) {
  const detail::neighbor_counts neighbors = detail::topology_neighbor_counts(ctx);
  out.resize_for(static_cast<std::size_t>(count.get()) * static_cast<std::size_t>(neighbors.in),
                 ctx.call, always_checked{});
}

// The number of elements of a buffer divided evenly among the out-neighbours.
template <typename Ctx, typename Out, typename Buffer>
void size_of_per_out_neighbor(Out& out, const Ctx& ctx, const Buffer& buffer) {
  const detail::neighbor_counts neighbors = detail::topology_neighbor_counts(ctx);
  if (neighbors.out == 0) {
    NAMPI_CHECK(buffer.size() == 0, "%s: this process has no out-neighbour to send the buffer to",
                ctx.call);
    out.set(0);
    return;
  }
  NAMPI_ASSERT(buffer.size() % static_cast<std::size_t>(neighbors.out) == 0,
               "%s: the buffer size is not a multiple of the number of out-neighbours", ctx.call);
  detail::set_count(out, buffer.size() / static_cast<std::size_t>(neighbors.out), ctx.call,
                    name_of(out));
}

// Every in-neighbour's count, by one MPI_Neighbor_allgather. A cartesian
// neighbour beyond a non-periodic border (MPI_PROC_NULL) sends nothing: 0.
template <typename Ctx, typename Out, typename Count>
void neighbor_allgather_counts(Out& out, const Ctx& ctx, const Count& count) {
  const detail::neighbor_counts neighbors = detail::topology_neighbor_counts(ctx);
  const auto in = static_cast<std::size_t>(neighbors.in);
  out.resize_for(in, ctx.call, always_checked{});
  std::fill(out.data(), out.data() + in, 0);
  using To = detail::array_element_t<Out>;
  const To mine = detail::narrow<To>(count.get(), ctx.call, name_of(count),
                                     "the element type of the counts array");
  detail::call_mpi<MPI_Neighbor_allgather>(ctx, "MPI_Neighbor_allgather", &mine, 1,
                                           mpi_datatype<To>(), detail::non_null(out.data()), 1,
                                           mpi_datatype<To>(), ctx.comm);
}

// The counts the in-neighbours send to this process, by one MPI_Neighbor_alltoall
// of send_counts (one entry per out-neighbour); 0 from MPI_PROC_NULL.
template <typename Ctx, typename Out, typename Counts>
void neighbor_alltoall_counts(Out& out, const Ctx& ctx, const Counts& send_counts) {
  const detail::neighbor_counts neighbors = detail::topology_neighbor_counts(ctx);
  NAMPI_CHECK(send_counts.size() == static_cast<std::size_t>(neighbors.out),
              "%s: %s needs one entry per out-neighbour (%d)", ctx.call, name_of(send_counts),
              neighbors.out);
  const auto in = static_cast<std::size_t>(neighbors.in);
  out.resize_for(in, ctx.call, always_checked{});
  std::fill(out.data(), out.data() + in, 0);
  using To = detail::array_element_t<Out>;
  const auto mine = detail::counts_as<To>(send_counts, ctx.call, name_of(send_counts));
  detail::call_mpi<MPI_Neighbor_alltoall>(
      ctx, "MPI_Neighbor_alltoall", detail::non_null(mine.data()), 1, mpi_datatype<To>(),
      detail::non_null(out.data()), 1, mpi_datatype<To>(), ctx.comm);
}

// --- one-value forms ---

// scatter_single's receive value: nothing to size, but the root's buffer must
// hold one value per rank (MPI would read past it).
template <typename Ctx, typename Out, typename Buffer, typename Root>
void one_per_rank_at_root(Out&&, const Ctx& ctx, const Buffer& buffer, const Root& root) {
  NAMPI_CHECK(ctx.rank != root.get() || buffer.size() >= static_cast<std::size_t>(ctx.size),
              "%s: the root's send_buf holds %zu values, one per rank (%d) needed", ctx.call,
              static_cast<std::size_t>(buffer.size()), ctx.size);
}

}  // namespace nampi::infer
