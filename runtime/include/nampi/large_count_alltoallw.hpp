// Large counts for the calls with counts arrays, on an MPI without their `_c`
// functions (Open MPI 5's wheel and 4.1): gatherv, scatterv, allgatherv,
// alltoallv, alltoallw and the neighborhood v and w calls (spec/bindings:
// `large_count_fallback: alltoallw`).
//
// A counts array cannot be one element of a derived datatype the way a scalar
// count can (large_count_type): each peer has its own count, and displacements
// beyond INT_MAX elements do not fit the int function either. So each peer's
// block, whatever its count and displacement, becomes one element of a derived
// datatype placed at the block's absolute address, and one MPI_Alltoallw
// (MPI_Neighbor_alltoallw for the neighborhood calls) on MPI_BOTTOM moves every
// block. A block that is empty costs nothing; a block of n elements costs
// MPI_Type_create_struct, MPI_Type_commit and MPI_Type_free (plus the calls of
// large_count_type when n > INT_MAX). MPI matches type signatures, so the peers
// may use the int functions, the `_c` functions or this emulation in any mix.
//
// Each function takes the `_c` twin's arguments (the generated call passes them
// unchanged) after the call's context, and serves blocking calls only: a
// nonblocking MPI_Ialltoallw would need its arrays of types kept alive until
// completion. Intracommunicators only (an intercommunicator's gatherv has
// MPI_ROOT and MPI_PROC_NULL roots, which these do not emulate).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "nampi/error.hpp"
#include "nampi/infer.hpp"
#include "nampi/large_count.hpp"

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
  std::vector<int> counts_;
  std::vector<int> int_displs_;
  std::vector<MPI_Aint> aint_displs_;
  std::vector<MPI_Datatype> types_;
  std::vector<MPI_Datatype> owned_;
};

inline MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &lb, &extent);
  return extent;
}

inline void require_intracommunicator(const call_context& ctx) {
  int inter = 0;
  call_mpi("MPI_Comm_test_inter", MPI_Comm_test_inter, ctx.comm, &inter);
  NAMPI_ASSERT(!inter, std::string("nampi: ") + ctx.call +
                           ": large counts on an intercommunicator need the MPI's _c function");
}

inline void exchange(peer_blocks& send, peer_blocks& recv, const call_context& ctx) {
  call_mpi("MPI_Alltoallw", MPI_Alltoallw, MPI_BOTTOM, send.counts(), send.int_displs(),
           send.types(), MPI_BOTTOM, recv.counts(), recv.int_displs(), recv.types(), ctx.comm);
}

inline void exchange_with_neighbors(peer_blocks& send, peer_blocks& recv, const call_context& ctx) {
  call_mpi("MPI_Neighbor_alltoallw", MPI_Neighbor_alltoallw, MPI_BOTTOM, send.counts(),
           send.aint_displs(), send.types(), MPI_BOTTOM, recv.counts(), recv.aint_displs(),
           recv.types(), ctx.comm);
}

// MPI_Gatherv_c: every rank's block to the root.
inline void emulated_gatherv_c(const call_context& ctx, const void* send_buf, MPI_Count send_count,
                               MPI_Datatype send_type, void* recv_buf, const MPI_Count recv_counts[],
                               const MPI_Aint recv_displs[], MPI_Datatype recv_type, int root,
                               MPI_Comm) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;  // the root's block is in place
  peer_blocks send(ctx.size, send_buf), recv(ctx.size, recv_buf);
  if (!(in_place && ctx.rank == root)) send.set(root, 0, send_count, send_type);
  if (ctx.rank == root) {
    const MPI_Aint extent = extent_of(recv_type);
    for (int peer = 0; peer < ctx.size; ++peer)
      if (!(in_place && peer == root))
        recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  }
  exchange(send, recv, ctx);
}

// MPI_Scatterv_c: the root's block i to rank i.
inline void emulated_scatterv_c(const call_context& ctx, const void* send_buf,
                                const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                MPI_Datatype send_type, void* recv_buf, MPI_Count recv_count,
                                MPI_Datatype recv_type, int root, MPI_Comm) {
  require_intracommunicator(ctx);
  const bool in_place = recv_buf == MPI_IN_PLACE;  // the root keeps its block where it is
  peer_blocks send(ctx.size, send_buf), recv(ctx.size, recv_buf);
  if (ctx.rank == root) {
    const MPI_Aint extent = extent_of(send_type);
    for (int peer = 0; peer < ctx.size; ++peer)
      if (!(in_place && peer == root))
        send.set(peer, send_displs[peer] * extent, send_counts[peer], send_type);
  }
  if (!(in_place && ctx.rank == root)) recv.set(root, 0, recv_count, recv_type);
  exchange(send, recv, ctx);
}

// MPI_Allgatherv_c: every rank's block to every rank.
inline void emulated_allgatherv_c(const call_context& ctx, const void* send_buf,
                                  MPI_Count send_count, MPI_Datatype send_type, void* recv_buf,
                                  const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                  MPI_Datatype recv_type, MPI_Comm) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;  // my block is already in recv_buf
  peer_blocks send(ctx.size, send_buf), recv(ctx.size, recv_buf);
  const MPI_Aint extent = extent_of(recv_type);
  for (int peer = 0; peer < ctx.size; ++peer) {
    if (in_place && peer == ctx.rank) continue;
    send.set(peer, 0, send_count, send_type);
    recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  }
  exchange(send, recv, ctx);
}

// MPI_Alltoallv_c: block j of my buffer to rank j. In place, each block of
// recv_buf is sent from where it will be received, which MPI_Alltoallw's own
// MPI_IN_PLACE does with the receive types.
inline void emulated_alltoallv_c(const call_context& ctx, const void* send_buf,
                                 const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                 MPI_Datatype send_type, void* recv_buf,
                                 const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                 MPI_Datatype recv_type, MPI_Comm) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;
  peer_blocks send(ctx.size, in_place ? nullptr : send_buf), recv(ctx.size, recv_buf);
  const MPI_Aint send_extent = in_place ? 0 : extent_of(send_type);
  const MPI_Aint recv_extent = extent_of(recv_type);
  for (int peer = 0; peer < ctx.size; ++peer) {
    if (!in_place) send.set(peer, send_displs[peer] * send_extent, send_counts[peer], send_type);
    recv.set(peer, recv_displs[peer] * recv_extent, recv_counts[peer], recv_type);
  }
  if (!in_place) return exchange(send, recv, ctx);
  call_mpi("MPI_Alltoallw", MPI_Alltoallw, MPI_IN_PLACE, recv.counts(), recv.int_displs(),
           recv.types(), MPI_BOTTOM, recv.counts(), recv.int_displs(), recv.types(), ctx.comm);
}

// MPI_Alltoallw_c: block j (byte displacement, its own type) to rank j.
inline void emulated_alltoallw_c(const call_context& ctx, const void* send_buf,
                                 const MPI_Count send_counts[], const MPI_Aint send_displs[],
                                 const MPI_Datatype send_types[], void* recv_buf,
                                 const MPI_Count recv_counts[], const MPI_Aint recv_displs[],
                                 const MPI_Datatype recv_types[], MPI_Comm) {
  require_intracommunicator(ctx);
  const bool in_place = send_buf == MPI_IN_PLACE;
  peer_blocks send(ctx.size, in_place ? nullptr : send_buf), recv(ctx.size, recv_buf);
  for (int peer = 0; peer < ctx.size; ++peer) {
    if (!in_place) send.set(peer, send_displs[peer], send_counts[peer], send_types[peer]);
    recv.set(peer, recv_displs[peer], recv_counts[peer], recv_types[peer]);
  }
  if (!in_place) return exchange(send, recv, ctx);
  call_mpi("MPI_Alltoallw", MPI_Alltoallw, MPI_IN_PLACE, recv.counts(), recv.int_displs(),
           recv.types(), MPI_BOTTOM, recv.counts(), recv.int_displs(), recv.types(), ctx.comm);
}

// MPI_Neighbor_allgatherv_c: my block to every out-neighbour, block i from in-neighbour i.
inline void emulated_neighbor_allgatherv_c(const call_context& ctx, const void* send_buf,
                                           MPI_Count send_count, MPI_Datatype send_type,
                                           void* recv_buf, const MPI_Count recv_counts[],
                                           const MPI_Aint recv_displs[], MPI_Datatype recv_type,
                                           MPI_Comm) {
  const neighbor_counts degree = topology_neighbor_counts(ctx);
  peer_blocks send(degree.out, send_buf), recv(degree.in, recv_buf);
  for (int peer = 0; peer < degree.out; ++peer) send.set(peer, 0, send_count, send_type);
  const MPI_Aint extent = extent_of(recv_type);
  for (int peer = 0; peer < degree.in; ++peer)
    recv.set(peer, recv_displs[peer] * extent, recv_counts[peer], recv_type);
  exchange_with_neighbors(send, recv, ctx);
}

// MPI_Neighbor_alltoallv_c: block j to out-neighbour j, block i from in-neighbour i.
inline void emulated_neighbor_alltoallv_c(const call_context& ctx, const void* send_buf,
                                          const MPI_Count send_counts[],
                                          const MPI_Aint send_displs[], MPI_Datatype send_type,
                                          void* recv_buf, const MPI_Count recv_counts[],
                                          const MPI_Aint recv_displs[], MPI_Datatype recv_type,
                                          MPI_Comm) {
  const neighbor_counts degree = topology_neighbor_counts(ctx);
  peer_blocks send(degree.out, send_buf), recv(degree.in, recv_buf);
  const MPI_Aint send_extent = extent_of(send_type);
  for (int peer = 0; peer < degree.out; ++peer)
    send.set(peer, send_displs[peer] * send_extent, send_counts[peer], send_type);
  const MPI_Aint recv_extent = extent_of(recv_type);
  for (int peer = 0; peer < degree.in; ++peer)
    recv.set(peer, recv_displs[peer] * recv_extent, recv_counts[peer], recv_type);
  exchange_with_neighbors(send, recv, ctx);
}

// MPI_Neighbor_alltoallw_c: as alltoallw, with the neighbours as peers.
inline void emulated_neighbor_alltoallw_c(const call_context& ctx, const void* send_buf,
                                          const MPI_Count send_counts[],
                                          const MPI_Aint send_displs[],
                                          const MPI_Datatype send_types[], void* recv_buf,
                                          const MPI_Count recv_counts[],
                                          const MPI_Aint recv_displs[],
                                          const MPI_Datatype recv_types[], MPI_Comm) {
  const neighbor_counts degree = topology_neighbor_counts(ctx);
  peer_blocks send(degree.out, send_buf), recv(degree.in, recv_buf);
  for (int peer = 0; peer < degree.out; ++peer)
    send.set(peer, send_displs[peer], send_counts[peer], send_types[peer]);
  for (int peer = 0; peer < degree.in; ++peer)
    recv.set(peer, recv_displs[peer], recv_counts[peer], recv_types[peer]);
  exchange_with_neighbors(send, recv, ctx);
}

}  // namespace nampi::detail
