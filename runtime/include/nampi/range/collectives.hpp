// The range backend's collectives: point-to-point messages on the parent communicator, each
// collective on its own reserved tag (range/tags.hpp). Every process of the range calls them
// in the same order, as MPI requires.
//   barrier:            dissemination (ceil(log2 p) rounds of one exchange)
//   bcast:              binomial tree from the root
//   reduce:             binomial tree to rank 0 in rank order (an op need not commute), then
//                       to the root; allreduce: reduce to 0, then bcast
//   scan, exscan:       recursive doubling (ceil(log2 p) exchanges), lower ranks on the left
//   gather(v):          each rank's block straight to the root, received in rank order
//   allgather(v):       a ring: p-1 exchanges with the neighbours, each block received in place
#pragma once

#include <mpi.h>

#include <utility>

#include "nampi/range/backend.hpp"
#include "nampi/range/messages.hpp"
#include "nampi/range/tags.hpp"

namespace nampi::detail::range_collectives {

namespace msg = range_messages;

inline int barrier(range_handle r) {
  const int rank = r.rank;
  char none = 0;
  for (int distance = 1; distance < r.size; distance *= 2)
    msg::sendrecv(&none, 0, MPI_BYTE, r.parent_of((rank + distance) % r.size), range_tags::barrier,
                  &none, 0, MPI_BYTE, r.parent_of((rank - distance + r.size) % r.size),
                  range_tags::barrier, r.parent);
  return MPI_SUCCESS;
}

// Binomial tree on ranks counted from the root: a rank receives once, from the rank that
// differs in its lowest set bit, then sends to the ranks below that bit.
inline int bcast(void* buf, MPI_Count count, MPI_Datatype type, int root, range_handle r,
                 int tag = range_tags::bcast) {
  const int rank = r.rank;
  if (root < 0 || root >= r.size) return MPI_ERR_ROOT;
  const int me = (rank - root + r.size) % r.size;
  int mask = 1;
  for (; mask < r.size; mask *= 2) {
    if (me & mask) {
      msg::recv(buf, count, type, r.parent_of((me - mask + root) % r.size), tag, r.parent);
      break;
    }
  }
  for (mask /= 2; mask > 0; mask /= 2)
    if (me + mask < r.size)
      msg::send(buf, count, type, r.parent_of((me + mask + root) % r.size), tag, r.parent);
  return MPI_SUCCESS;
}

// The reduction of every rank's `send` (in rank order) at rank 0, written to `result` there.
// A partial result travels up a binomial tree; each step combines the lower ranks' partial
// (left) with the received higher ranks' one, written into the received buffer
// (MPI_Reduce_local(in, inout) computes inout = in op inout), so `send` is only read.
inline void reduce_to_0(const void* send, void* result, MPI_Count count, MPI_Datatype type,
                        MPI_Op op, range_handle r) {
  const int rank = r.rank;
  const void* partial = send;
  msg::scratch held[2] = {msg::scratch(rank % 2 == 0 && r.size > 1 ? count : 0, type),
                          msg::scratch(rank % 2 == 0 && r.size > 1 ? count : 0, type)};
  int next = 0;
  for (int mask = 1; mask < r.size; mask *= 2) {
    if (rank & mask) {
      msg::send(partial, count, type, r.parent_of(rank - mask), range_tags::reduce, r.parent);
      return;
    }
    if (rank + mask < r.size) {
      void* theirs = held[next].data();
      msg::recv(theirs, count, type, r.parent_of(rank + mask), range_tags::reduce, r.parent);
      const large_count_type t(count, type);
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, partial, theirs, t.count(), t.type(), op);
      partial = theirs;
      next = 1 - next;
    }
  }
  // rank 0: the whole reduction
  msg::copy(partial, count, type, result, count, type, r);
}

inline int reduce(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  int root, range_handle r) {
  const int rank = r.rank;
  if (root < 0 || root >= r.size) return MPI_ERR_ROOT;
  const void* mine = send == MPI_IN_PLACE ? recv : send;  // in place: at the root only
  if (root == 0) {
    reduce_to_0(mine, recv, count, type, op, r);
    return MPI_SUCCESS;
  }
  if (rank == 0) {
    msg::scratch result(count, type);
    reduce_to_0(mine, result.data(), count, type, op, r);
    msg::send(result.data(), count, type, r.parent_of(root), range_tags::reduce, r.parent);
  } else {
    reduce_to_0(mine, nullptr, count, type, op, r);
  }
  if (rank == root) msg::recv(recv, count, type, r.parent_of(0), range_tags::reduce, r.parent);
  return MPI_SUCCESS;
}

inline int allreduce(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                     range_handle r) {
  reduce_to_0(send == MPI_IN_PLACE ? recv : send, recv, count, type, op, r);
  return bcast(recv, count, type, 0, r);
}

// Recursive doubling: after the round of distance d, `partial` holds the reduction of the
// ranks rank-2d+1..rank (those that exist); each round receives the partial of the ranks
// just below and puts it on the left.
inline int scan(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                range_handle r) {
  const int rank = r.rank;
  if (send != MPI_IN_PLACE) msg::copy(send, count, type, recv, count, type, r);
  msg::scratch theirs(r.size > 1 ? count : 0, type);
  const large_count_type t(count, type);
  for (int distance = 1; distance < r.size; distance *= 2) {
    const int to = rank + distance < r.size ? r.parent_of(rank + distance) : MPI_PROC_NULL;
    const int from = rank - distance >= 0 ? r.parent_of(rank - distance) : MPI_PROC_NULL;
    msg::sendrecv(recv, count, type, to, range_tags::scan, theirs.data(), count, type, from,
                  range_tags::scan, r.parent);
    if (from != MPI_PROC_NULL)
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), recv, t.count(), t.type(), op);
  }
  return MPI_SUCCESS;
}

// As scan, with the own value kept apart: `recv` gets only what came from below (rank 0's
// is left as it was, as MPI leaves it undefined).
inline int exscan(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  range_handle r) {
  const int rank = r.rank;
  msg::scratch partial(count, type), theirs(r.size > 1 ? count : 0, type);
  msg::copy(send == MPI_IN_PLACE ? recv : send, count, type, partial.data(), count, type, r);
  const large_count_type t(count, type);
  bool have = false;  // recv holds a result
  for (int distance = 1; distance < r.size; distance *= 2) {
    const int to = rank + distance < r.size ? r.parent_of(rank + distance) : MPI_PROC_NULL;
    const int from = rank - distance >= 0 ? r.parent_of(rank - distance) : MPI_PROC_NULL;
    msg::sendrecv(partial.data(), count, type, to, range_tags::exscan, theirs.data(), count, type,
                  from, range_tags::exscan, r.parent);
    if (from == MPI_PROC_NULL) continue;
    if (have)
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), recv, t.count(), t.type(), op);
    else
      msg::copy(theirs.data(), count, type, recv, count, type, r);
    have = true;
    call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), partial.data(), t.count(),
             t.type(), op);
  }
  return MPI_SUCCESS;
}

// Rank i's block at the root: `counts(i)` elements at `displs(i)` elements into recv.
template <typename CountOf, typename DisplOf>
int gatherv(const void* send, MPI_Count send_count, MPI_Datatype send_type, void* recv,
            CountOf counts, DisplOf displs, MPI_Datatype recv_type, int root, range_handle r) {
  const int rank = r.rank;
  if (root < 0 || root >= r.size) return MPI_ERR_ROOT;
  if (rank != root) {
    msg::send(send, send_count, send_type, r.parent_of(root), range_tags::gather, r.parent);
    return MPI_SUCCESS;
  }
  const MPI_Aint extent = msg::extent_of(recv_type);
  for (int i = 0; i < r.size; ++i) {
    void* block = advanced(recv, static_cast<MPI_Aint>(displs(i)) * extent);
    if (i != root)
      msg::recv(block, counts(i), recv_type, r.parent_of(i), range_tags::gather, r.parent);
    else if (send != MPI_IN_PLACE)
      msg::copy(send, send_count, send_type, block, counts(i), recv_type, r);
  }
  return MPI_SUCCESS;
}

// Ring: in step s, rank i passes on the block of rank i-s to rank i+1 and receives the block
// of rank i-s-1 from rank i-1, each straight into its place in recv.
template <typename CountOf, typename DisplOf>
int allgatherv(const void* send, MPI_Count send_count, MPI_Datatype send_type, void* recv,
               CountOf counts, DisplOf displs, MPI_Datatype recv_type, range_handle r) {
  const int rank = r.rank;
  const MPI_Aint extent = msg::extent_of(recv_type);
  auto block = [&](int i) { return advanced(recv, static_cast<MPI_Aint>(displs(i)) * extent); };
  if (send != MPI_IN_PLACE)
    msg::copy(send, send_count, send_type, block(rank), counts(rank), recv_type, r);
  const int right = r.parent_of((rank + 1) % r.size);
  const int left = r.parent_of((rank - 1 + r.size) % r.size);
  for (int step = 0; step + 1 < r.size; ++step) {
    const int out = (rank - step + r.size) % r.size;
    const int in = (rank - step - 1 + r.size) % r.size;
    msg::sendrecv(block(out), counts(out), recv_type, right, range_tags::allgather, block(in),
                  counts(in), recv_type, left, range_tags::allgather, r.parent);
  }
  return MPI_SUCCESS;
}

// Fixed-size blocks: block i at i * count.
struct same_count {
  MPI_Count count;
  MPI_Count operator()(int) const { return count; }
};
struct block_displ {
  MPI_Count count;
  MPI_Count operator()(int i) const { return i * count; }
};
template <typename T>
struct from_array {
  const T* values;
  MPI_Count operator()(int i) const { return static_cast<MPI_Count>(values[i]); }
};

}  // namespace nampi::detail::range_collectives

namespace nampi::detail {

// The entries, with MPI's parameters (the range in place of the communicator); the `_c`
// twins take MPI_Count counts and MPI_Aint displacements and run the same code.
namespace rc = range_collectives;

template <>
struct range_backend<MPI_Barrier> {
  static int run(range_handle r) { return rc::barrier(r); }
};

template <typename Count>
struct range_bcast {
  static int run(void* b, Count c, MPI_Datatype t, int root, range_handle r) {
    return rc::bcast(b, c, t, root, r);
  }
};
template <>
struct range_backend<MPI_Bcast> : range_bcast<int> {};

template <typename Count>
struct range_reduce {
  static int run(const void* s, void* b, Count c, MPI_Datatype t, MPI_Op op, int root,
                 range_handle r) {
    return rc::reduce(s, b, c, t, op, root, r);
  }
};
template <>
struct range_backend<MPI_Reduce> : range_reduce<int> {};

// allreduce, scan and exscan: the same parameters.
template <typename Count,
          int (*Algorithm)(const void*, void*, MPI_Count, MPI_Datatype, MPI_Op, range_handle)>
struct range_all_reduction {
  static int run(const void* s, void* b, Count c, MPI_Datatype t, MPI_Op op, range_handle r) {
    return Algorithm(s, b, c, t, op, r);
  }
};
template <>
struct range_backend<MPI_Allreduce> : range_all_reduction<int, rc::allreduce> {};
template <>
struct range_backend<MPI_Scan> : range_all_reduction<int, rc::scan> {};
template <>
struct range_backend<MPI_Exscan> : range_all_reduction<int, rc::exscan> {};

template <typename Count>
struct range_gather {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, Count rc_, MPI_Datatype rt,
                 int root, range_handle r) {
    return rc::gatherv(s, sc, st, b, rc::same_count{rc_}, rc::block_displ{rc_}, rt, root, r);
  }
};
template <>
struct range_backend<MPI_Gather> : range_gather<int> {};

template <typename Count, typename Displ>
struct range_gatherv {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, const Count* counts,
                 const Displ* displs, MPI_Datatype rt, int root, range_handle r) {
    return rc::gatherv(s, sc, st, b, rc::from_array<Count>{counts}, rc::from_array<Displ>{displs},
                       rt, root, r);
  }
};
template <>
struct range_backend<MPI_Gatherv> : range_gatherv<int, int> {};

template <typename Count>
struct range_allgather {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, Count rc_, MPI_Datatype rt,
                 range_handle r) {
    return rc::allgatherv(s, sc, st, b, rc::same_count{rc_}, rc::block_displ{rc_}, rt, r);
  }
};
template <>
struct range_backend<MPI_Allgather> : range_allgather<int> {};

template <typename Count, typename Displ>
struct range_allgatherv {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, const Count* counts,
                 const Displ* displs, MPI_Datatype rt, range_handle r) {
    return rc::allgatherv(s, sc, st, b, rc::from_array<Count>{counts},
                          rc::from_array<Displ>{displs}, rt, r);
  }
};
template <>
struct range_backend<MPI_Allgatherv> : range_allgatherv<int, int> {};

#if defined(NAMPI_HAVE_MPI_BCAST_C)
template <>
struct range_backend<MPI_Bcast_c> : range_bcast<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_REDUCE_C)
template <>
struct range_backend<MPI_Reduce_c> : range_reduce<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLREDUCE_C)
template <>
struct range_backend<MPI_Allreduce_c> : range_all_reduction<MPI_Count, rc::allreduce> {};
#endif
#if defined(NAMPI_HAVE_MPI_SCAN_C)
template <>
struct range_backend<MPI_Scan_c> : range_all_reduction<MPI_Count, rc::scan> {};
#endif
#if defined(NAMPI_HAVE_MPI_EXSCAN_C)
template <>
struct range_backend<MPI_Exscan_c> : range_all_reduction<MPI_Count, rc::exscan> {};
#endif
#if defined(NAMPI_HAVE_MPI_GATHER_C)
template <>
struct range_backend<MPI_Gather_c> : range_gather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_GATHERV_C)
template <>
struct range_backend<MPI_Gatherv_c> : range_gatherv<MPI_Count, MPI_Aint> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLGATHER_C)
template <>
struct range_backend<MPI_Allgather_c> : range_allgather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLGATHERV_C)
template <>
struct range_backend<MPI_Allgatherv_c> : range_allgatherv<MPI_Count, MPI_Aint> {};
#endif

}  // namespace nampi::detail
