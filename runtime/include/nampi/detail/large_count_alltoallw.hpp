// Large counts for the calls with counts arrays, on an MPI without their `_c`
// functions (Open MPI 5's wheel and 4.1): gatherv, scatterv, allgatherv,
// alltoallv, alltoallw and the neighborhood v and w calls, blocking,
// nonblocking and persistent (spec/bindings: `large_count_fallback: alltoallw`).
//
// A counts array cannot be one element of a derived datatype the way a scalar
// count can (large_count_type): each peer has its own count, and displacements
// beyond INT_MAX elements do not fit the int function either. So each peer's
// block, whatever its count and displacement, becomes one element of a derived
// datatype placed at the block's absolute address, and one MPI_Alltoallw
// (MPI_Neighbor_alltoallw for the neighborhood calls; their I and _init forms
// for the nonblocking and persistent calls) on MPI_BOTTOM moves every block. A
// block that is empty costs nothing; a block of n elements costs
// MPI_Type_create_struct, MPI_Type_commit and MPI_Type_free (plus the calls of
// large_count_type when n > INT_MAX). MPI matches type signatures, so the peers
// may use the int functions, the `_c` functions or this emulation in any mix of
// types, but the emulation replaces the collective: every rank must take it.
//
// A generated call builds the blocks with <call>_blocks(ctx, the twin's
// arguments up to the communicator) and issues them with emulate_by_alltoallw.
// MPI reads the arrays of a nonblocking or persistent call until it completes
// (or until the persistent request is freed): the call's result owns them in an
// emulation_slot. Intracommunicators only (an intercommunicator's
// gatherv has MPI_ROOT and MPI_PROC_NULL roots, which these do not emulate).
#pragma once

#include <mpi.h>

#include <string>

#include "nampi/detail/emulation_slot.hpp"
#include "nampi/detail/infer.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/owned.hpp"
#include "nampi/detail/trivial_vector.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

// One side of the exchange: for every peer, the count (0 or 1), the
// displacement (always 0: the types carry absolute addresses) and the type.
class peer_blocks {
 public:
  peer_blocks(int peers, const void* buffer)
      : buffer_(buffer),
        counts_(static_cast<std::size_t>(peers), 0),
        int_displs_(static_cast<std::size_t>(peers), 0),
        aint_displs_(static_cast<std::size_t>(peers), 0),
        types_(static_cast<std::size_t>(peers), MPI_BYTE) {}
  peer_blocks(const peer_blocks&) = delete;
  peer_blocks& operator=(const peer_blocks&) = delete;
  ~peer_blocks() {
    for (MPI_Datatype& type : owned_) MPI_Type_free(&type);
  }

  // The block of `peer`: `count` elements of `type`, `offset` bytes into the buffer.
  void set(int peer, MPI_Aint offset, MPI_Count count, MPI_Datatype type) {
    if (count == 0) return;
    if (!have_base_) {  // once per buffer
      call_mpi("MPI_Get_address", MPI_Get_address, buffer_, &base_);
      have_base_ = true;
    }
    MPI_Aint address = MPI_Aint_add(base_, offset);
    const large_count_type elements(count, type);
    int length = elements.count();
    MPI_Datatype element = elements.type();
    MPI_Datatype placed = MPI_DATATYPE_NULL;
    call_mpi("MPI_Type_create_struct", MPI_Type_create_struct, 1, &length, &address, &element,
             &placed);
    owned_.push_back(placed);
    call_mpi("MPI_Type_commit", MPI_Type_commit, &owned_.back());
    counts_[static_cast<std::size_t>(peer)] = 1;
    types_[static_cast<std::size_t>(peer)] = placed;
  }

  int* counts() noexcept { return counts_.data(); }
  int* int_displs() noexcept { return int_displs_.data(); }
  MPI_Aint* aint_displs() noexcept { return aint_displs_.data(); }
  MPI_Datatype* types() noexcept { return types_.data(); }

 private:
  const void* buffer_;
  MPI_Aint base_ = 0;
  bool have_base_ = false;
  trivial_vector<int> counts_;
  trivial_vector<int> int_displs_;
  trivial_vector<MPI_Aint> aint_displs_;
  trivial_vector<MPI_Datatype> types_;
  trivial_vector<MPI_Datatype> owned_;
};

inline MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &lb, &extent);
  return extent;
}

inline void require_intracommunicator(const call_context& ctx) {
  int inter = 0;
  call_mpi("MPI_Comm_test_inter", MPI_Comm_test_inter, ctx.comm, &inter);
  NAMPI_ASSERT(!inter, "%s: large counts on an intercommunicator need the MPI's _c function",
               ctx.call);
}

// Both sides of the exchange, and with whom: every rank, or the topology's neighbours.
struct block_exchange {
  block_exchange(int send_peers, const void* send_buf, int recv_peers, const void* recv_buf,
                 bool neighbors)
      : send(send_peers, send_buf), recv(recv_peers, recv_buf), neighbors(neighbors) {}
  peer_blocks send;
  peer_blocks recv;
  bool neighbors;
  bool in_place = false;  // MPI_IN_PLACE: recv's blocks are sent from where they are received
};
using blocks_ptr = owned<block_exchange>;

// MPI_Gatherv_c: every rank's block to the root.
inline blocks_ptr gatherv_blocks(const call_context& ctx, const void* send_buf,
                                 MPI_Count send_count, MPI_Datatype send_type, void* recv_buf,
                                 const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                 MPI_Datatype recv_type, int root) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;  // the root's block is in place
  auto b = make_owned<block_exchange>(ctx.size, send_buf, ctx.size, recv_buf, false);
  if (!(in_place && ctx.rank == root)) b->send.set(root, 0, send_count, send_type);
  if (ctx.rank == root) {
    const MPI_Aint extent = extent_of(recv_type);
    for (int peer = 0; peer < ctx.size; ++peer)
      if (!(in_place && peer == root))
        b->recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  }
  return b;
}

// MPI_Scatterv_c: the root's block i to rank i.
inline blocks_ptr scatterv_blocks(const call_context& ctx, const void* send_buf,
                                  const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                  MPI_Datatype send_type, void* recv_buf, MPI_Count recv_count,
                                  MPI_Datatype recv_type, int root) {
  require_intracommunicator(ctx);
  const bool in_place = recv_buf == MPI_IN_PLACE;  // the root keeps its block where it is
  auto b = make_owned<block_exchange>(ctx.size, send_buf, ctx.size, recv_buf, false);
  if (ctx.rank == root) {
    const MPI_Aint extent = extent_of(send_type);
    for (int peer = 0; peer < ctx.size; ++peer)
      if (!(in_place && peer == root))
        b->send.set(peer, send_displs[peer] * extent, send_counts[peer], send_type);
  }
  if (!(in_place && ctx.rank == root)) b->recv.set(root, 0, recv_count, recv_type);
  return b;
}

// MPI_Allgatherv_c: every rank's block to every rank.
inline blocks_ptr allgatherv_blocks(const call_context& ctx, const void* send_buf,
                                    MPI_Count send_count, MPI_Datatype send_type, void* recv_buf,
                                    const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                    MPI_Datatype recv_type) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;  // my block is already in recv_buf
  auto b = make_owned<block_exchange>(ctx.size, send_buf, ctx.size, recv_buf, false);
  const MPI_Aint extent = extent_of(recv_type);
  for (int peer = 0; peer < ctx.size; ++peer) {
    if (in_place && peer == ctx.rank) continue;
    b->send.set(peer, 0, send_count, send_type);
    b->recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  }
  return b;
}

// The peers of an exchange: every rank (an intracommunicator), or the in- and
// out-neighbours of the communicator's topology.
inline neighbor_counts peers_of(const call_context& ctx, bool neighbors) {
  if (neighbors) return topology_neighbor_counts(ctx);
  require_intracommunicator(ctx);
  return {ctx.size, ctx.size};
}

// MPI_Alltoallv_c (MPI_Neighbor_alltoallv_c): block j of my buffer to peer j.
inline blocks_ptr alltoallv_blocks_of(const call_context& ctx, const void* send_buf,
                                      const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                      MPI_Datatype send_type, void* recv_buf,
                                      const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                      MPI_Datatype recv_type, bool neighbors) {
  const neighbor_counts degree = peers_of(ctx, neighbors);
  const bool in_place = send_buf == MPI_IN_PLACE;
  auto b = make_owned<block_exchange>(degree.out, in_place ? nullptr : send_buf, degree.in,
                                      recv_buf, neighbors);
  b->in_place = in_place;
  if (!in_place) {
    const MPI_Aint extent = extent_of(send_type);
    for (int peer = 0; peer < degree.out; ++peer)
      b->send.set(peer, send_displs[peer] * extent, send_counts[peer], send_type);
  }
  const MPI_Aint extent = extent_of(recv_type);
  for (int peer = 0; peer < degree.in; ++peer)
    b->recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  return b;
}
inline blocks_ptr alltoallv_blocks(const call_context& ctx, const void* send_buf,
                                   const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                   MPI_Datatype send_type, void* recv_buf,
                                   const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                   MPI_Datatype recv_type) {
  return alltoallv_blocks_of(ctx, send_buf, send_counts, send_displs, send_type, recv_buf,
                             recv_counts, recv_displs, recv_type, false);
}

// MPI_Alltoallw_c: block j (byte displacement, its own type) to rank j.
inline blocks_ptr alltoallw_blocks_of(const call_context& ctx, const void* send_buf,
                                      const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                      const MPI_Datatype send_types[], void* recv_buf,
                                      const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                      const MPI_Datatype recv_types[], bool neighbors) {
  const bool in_place = send_buf == MPI_IN_PLACE;
  const neighbor_counts degree = peers_of(ctx, neighbors);
  const int out = degree.out, in = degree.in;
  auto b = make_owned<block_exchange>(out, in_place ? nullptr : send_buf, in, recv_buf, neighbors);
  b->in_place = in_place;
  if (!in_place)
    for (int peer = 0; peer < out; ++peer)
      b->send.set(peer, send_displs[peer], send_counts[peer], send_types[peer]);
  for (int peer = 0; peer < in; ++peer)
    b->recv.set(peer, recv_displs[peer], recv_counts[peer], recv_types[peer]);
  return b;
}
inline blocks_ptr alltoallw_blocks(const call_context& ctx, const void* send_buf,
                                   const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                   const MPI_Datatype send_types[], void* recv_buf,
                                   const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                   const MPI_Datatype recv_types[]) {
  return alltoallw_blocks_of(ctx, send_buf, send_counts, send_displs, send_types, recv_buf,
                             recv_counts, recv_displs, recv_types, false);
}

// MPI_Neighbor_allgatherv_c: my block to every out-neighbour, block i from in-neighbour i.
inline blocks_ptr neighbor_allgatherv_blocks(const call_context& ctx, const void* send_buf,
                                             MPI_Count send_count, MPI_Datatype send_type,
                                             void* recv_buf, const MPI_Count recv_counts[],
                                             const MPI_Aint recv_displs[], MPI_Datatype recv_type) {
  const neighbor_counts degree = topology_neighbor_counts(ctx);
  auto b = make_owned<block_exchange>(degree.out, send_buf, degree.in, recv_buf, true);
  for (int peer = 0; peer < degree.out; ++peer) b->send.set(peer, 0, send_count, send_type);
  const MPI_Aint extent = extent_of(recv_type);
  for (int peer = 0; peer < degree.in; ++peer)
    b->recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  return b;
}

// MPI_Neighbor_alltoallv_c: as alltoallv, with the neighbours as peers.
inline blocks_ptr neighbor_alltoallv_blocks(const call_context& ctx, const void* send_buf,
                                            const MPI_Count send_counts[],
                                            const MPI_Aint send_displs[], MPI_Datatype send_type,
                                            void* recv_buf, const MPI_Count recv_counts[],
                                            const MPI_Aint recv_displs[], MPI_Datatype recv_type) {
  return alltoallv_blocks_of(ctx, send_buf, send_counts, send_displs, send_type, recv_buf,
                             recv_counts, recv_displs, recv_type, true);
}

// MPI_Neighbor_alltoallw_c: as alltoallw, with the neighbours as peers.
inline blocks_ptr neighbor_alltoallw_blocks(
    const call_context& ctx, const void* send_buf, const MPI_Count send_counts[],
    const MPI_Aint send_displs[], const MPI_Datatype send_types[], void* recv_buf,
    const MPI_Count recv_counts[], const MPI_Aint recv_displs[], const MPI_Datatype recv_types[]) {
  return alltoallw_blocks_of(ctx, send_buf, send_counts, send_displs, send_types, recv_buf,
                             recv_counts, recv_displs, recv_types, true);
}

// The send side's arguments: MPI_IN_PLACE (recv's blocks, sent from where they are
// received) or the send blocks.
struct send_side {
  const void* buffer;
  peer_blocks* blocks;
};
inline send_side send_side_of(block_exchange& b) {
  return b.in_place ? send_side{MPI_IN_PLACE, &b.recv} : send_side{MPI_BOTTOM, &b.send};
}

// Blocking: one MPI_Alltoallw or MPI_Neighbor_alltoallw; the blocks are freed on return.
inline void emulate_by_alltoallw(const call_context& ctx, blocks_ptr b) {
  const send_side s = send_side_of(*b);
  peer_blocks& r = b->recv;
  if (b->neighbors)
    call_mpi("MPI_Neighbor_alltoallw", MPI_Neighbor_alltoallw, s.buffer, s.blocks->counts(),
             s.blocks->aint_displs(), s.blocks->types(), MPI_BOTTOM, r.counts(), r.aint_displs(),
             r.types(), ctx.comm);
  else
    call_mpi("MPI_Alltoallw", MPI_Alltoallw, s.buffer, s.blocks->counts(), s.blocks->int_displs(),
             s.blocks->types(), MPI_BOTTOM, r.counts(), r.int_displs(), r.types(), ctx.comm);
}

// Nonblocking: MPI_Ialltoallw or MPI_Ineighbor_alltoallw; the result keeps the blocks.
inline void emulate_by_alltoallw(const call_context& ctx, blocks_ptr b,
                                 emulation_slot<true, block_exchange>& keep, MPI_Request* request) {
  const send_side s = send_side_of(*b);
  peer_blocks& r = b->recv;
  if (b->neighbors)
    call_mpi("MPI_Ineighbor_alltoallw", MPI_Ineighbor_alltoallw, s.buffer, s.blocks->counts(),
             s.blocks->aint_displs(), s.blocks->types(), MPI_BOTTOM, r.counts(), r.aint_displs(),
             r.types(), ctx.comm, request);
  else
    call_mpi("MPI_Ialltoallw", MPI_Ialltoallw, s.buffer, s.blocks->counts(), s.blocks->int_displs(),
             s.blocks->types(), MPI_BOTTOM, r.counts(), r.int_displs(), r.types(), ctx.comm,
             request);
  keep.hold(std::move(b));
}

// Persistent: MPI_Alltoallw_init or MPI_Neighbor_alltoallw_init (an MPI with persistent
// collectives has them); the persistent call keeps the blocks.
inline void emulate_by_alltoallw(const call_context& ctx, blocks_ptr b,
                                 emulation_slot<true, block_exchange>& keep, MPI_Info info,
                                 MPI_Request* request) {
#if defined(NAMPI_HAVE_MPI_ALLTOALLW_INIT) && defined(NAMPI_HAVE_MPI_NEIGHBOR_ALLTOALLW_INIT)
  const send_side s = send_side_of(*b);
  peer_blocks& r = b->recv;
  if (b->neighbors)
    call_mpi("MPI_Neighbor_alltoallw_init", MPI_Neighbor_alltoallw_init, s.buffer,
             s.blocks->counts(), s.blocks->aint_displs(), s.blocks->types(), MPI_BOTTOM, r.counts(),
             r.aint_displs(), r.types(), ctx.comm, info, request);
  else
    call_mpi("MPI_Alltoallw_init", MPI_Alltoallw_init, s.buffer, s.blocks->counts(),
             s.blocks->int_displs(), s.blocks->types(), MPI_BOTTOM, r.counts(), r.int_displs(),
             r.types(), ctx.comm, info, request);
  keep.hold(std::move(b));
#else
  (void)ctx, (void)b, (void)keep, (void)info, (void)request;
  throw usage_error(std::string("nampi: ") + ctx.call +
                    ": this MPI has neither the call's _c function nor MPI_Alltoallw_init");
#endif
}

}  // namespace nampi::detail
