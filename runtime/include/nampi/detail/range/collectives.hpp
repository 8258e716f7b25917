// The range backend's collectives: point-to-point messages on nampi's own context of the parent
// communicator, each collective on tags of its own (range/collective_start.hpp). Each is one
// coroutine (range/task.hpp) for the blocking call (run to its end at once) and the
// nonblocking one (driven by its result's wait() and test()). Every process of the range
// calls them in the same order, as MPI requires.
//   barrier:            dissemination (ceil(log2 p) rounds of one exchange)
//   bcast:              binomial tree from the root (large messages: one child at a time)
//   reduce:             binomial tree to rank 0 in rank order (an op need not commute), then
//                       to the root; allreduce: reduce to 0, then bcast
//   scan, exscan:       recursive doubling (ceil(log2 p) exchanges), lower ranks on the left
//   gather(v):          each rank's block straight to the root, received in rank order
//   allgather(v):       doubling (ceil(log2 p) rounds) below 512 KiB in all, else a ring
//                       (p-1 exchanges with the neighbours); each block received in place
#pragma once

#include <mpi.h>

#include <utility>

#include "nampi/detail/range/backend.hpp"
#include "nampi/detail/range/collective_start.hpp"
#include "nampi/detail/range/messages.hpp"
#include "nampi/detail/range/tags.hpp"
#include "nampi/detail/range/task.hpp"

namespace nampi::detail::range_collectives {

namespace msg = range_messages;

template <typename Unused = void>
range_task barrier(range_handle r) {
  const int rank = r.rank;
  const int tag = r.collective_tag(range_tags::barrier);
  char none = 0, got = 0;
  range_round round(r.parent);
  for (int distance = 1; distance < r.size; distance *= 2) {
    round.send(&none, 0, MPI_BYTE, r.parent_of((rank + distance) % r.size), tag);
    round.recv(&got, 0, MPI_BYTE, r.parent_of((rank - distance + r.size) % r.size), tag);
    co_await round;
  }
  co_return MPI_SUCCESS;
}

// Above this many bytes a broadcast sends to its children one after another.
inline constexpr MPI_Count bcast_one_by_one_bytes = 16 * 1024;

// Binomial tree on ranks counted from the root: a rank receives once, from the rank that
// differs in its lowest set bit, then sends to the ranks below that bit, the largest subtree
// first. Small messages go to all children at once; large ones one after another, as MPI's
// own binomial trees send them: sent at once, they would share the rank's link, and the
// largest subtree, which has the longest way still to go, would get its data last of all.
template <typename Unused = void>
range_task bcast(void* buf, MPI_Count count, MPI_Datatype type, int root, range_handle r) {
  if (root < 0 || root >= r.size) co_return MPI_ERR_ROOT;
  const int tag = r.collective_tag(range_tags::bcast);
  const int me = (r.rank - root + r.size) % r.size;
  range_round round(r.parent);
  int mask = 1;
  for (; mask < r.size; mask *= 2) {
    if (me & mask) {
      round.recv(buf, count, type, r.parent_of((me - mask + root) % r.size), tag);
      co_await round;
      break;
    }
  }
  const bool one_by_one = count * facts_of(type).size > bcast_one_by_one_bytes;
  for (mask /= 2; mask > 0; mask /= 2) {
    if (me + mask >= r.size) continue;
    round.send(buf, count, type, r.parent_of((me + mask + root) % r.size), tag);
    if (one_by_one) co_await round;
  }
  co_await round;
  co_return MPI_SUCCESS;
}

// The reduction of every rank's `send` (in rank order) at rank 0, written to `result` there.
// A partial result travels up a binomial tree; each step combines the lower ranks' partial
// (left) with the received higher ranks' one, written into the received buffer
// (MPI_Reduce_local(in, inout) computes inout = in op inout), so `send` is only read.
template <typename Unused = void>
range_task reduce_to_0(const void* send, void* result, MPI_Count count, MPI_Datatype type,
                       MPI_Op op, range_handle r) {
  const int rank = r.rank;
  const int tag = r.collective_tag(range_tags::reduce);
  const void* partial = send;
  msg::scratch held[2] = {msg::scratch(rank % 2 == 0 && r.size > 1 ? count : 0, type),
                          msg::scratch(rank % 2 == 0 && r.size > 1 ? count : 0, type)};
  int next = 0;
  range_round round(r.parent);
  for (int mask = 1; mask < r.size; mask *= 2) {
    if (rank & mask) {
      round.send(partial, count, type, r.parent_of(rank - mask), tag);
      co_await round;
      co_return MPI_SUCCESS;
    }
    if (rank + mask < r.size) {
      void* theirs = held[next].data();
      round.recv(theirs, count, type, r.parent_of(rank + mask), tag);
      co_await round;
      const large_count_type t(count, type);
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, partial, theirs, t.count(), t.type(), op);
      partial = theirs;
      next = 1 - next;
    }
  }
  // rank 0: the whole reduction
  msg::copy(partial, count, type, result, count, type, r);
  co_return MPI_SUCCESS;
}

template <typename Unused = void>
range_task reduce(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  int root, range_handle r) {
  const int rank = r.rank;
  if (root < 0 || root >= r.size) co_return MPI_ERR_ROOT;
  const int tag = r.collective_tag(range_tags::reduce);
  const void* mine = send == MPI_IN_PLACE ? recv : send;  // in place: at the root only
  if (root == 0) co_return co_await reduce_to_0(mine, recv, count, type, op, r);
  range_round round(r.parent);
  if (rank == 0) {
    msg::scratch result(count, type);
    co_await reduce_to_0(mine, result.data(), count, type, op, r);
    round.send(result.data(), count, type, r.parent_of(root), tag);
    co_await round;
  } else {
    co_await reduce_to_0(mine, nullptr, count, type, op, r);
  }
  if (rank == root) {
    round.recv(recv, count, type, r.parent_of(0), tag);
    co_await round;
  }
  co_return MPI_SUCCESS;
}

template <typename Unused = void>
range_task allreduce(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                     range_handle r) {
  co_await reduce_to_0(send == MPI_IN_PLACE ? recv : send, recv, count, type, op, r);
  co_return co_await bcast(recv, count, type, 0, r);
}

// Recursive doubling: after the round of distance d, `partial` holds the reduction of the
// ranks rank-2d+1..rank (those that exist); each round receives the partial of the ranks
// just below and puts it on the left.
template <typename Unused = void>
range_task scan(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                range_handle r) {
  const int rank = r.rank;
  const int tag = r.collective_tag(range_tags::scan);
  const datatype_facts facts = msg::facts_for(count, type);  // asked once
  if (send != MPI_IN_PLACE) msg::copy_of_type(send, recv, count, type, facts, r);
  msg::scratch theirs(r.size > 1 ? count : 0, facts);
  const large_count_type t(count, type);
  range_round round(r.parent);
  for (int distance = 1; distance < r.size; distance *= 2) {
    if (rank + distance < r.size) round.send(recv, count, type, r.parent_of(rank + distance), tag);
    const bool from_below = rank - distance >= 0;
    if (from_below) round.recv(theirs.data(), count, type, r.parent_of(rank - distance), tag);
    co_await round;
    if (from_below)
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), recv, t.count(), t.type(), op);
  }
  co_return MPI_SUCCESS;
}

// As scan, with the own value kept apart: `recv` gets only what came from below (rank 0's
// is left as it was, as MPI leaves it undefined).
template <typename Unused = void>
range_task exscan(const void* send, void* recv, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  range_handle r) {
  const int rank = r.rank;
  const int tag = r.collective_tag(range_tags::exscan);
  const datatype_facts facts = msg::facts_for(count, type);  // asked once
  msg::scratch partial(count, facts), theirs(r.size > 1 ? count : 0, facts);
  msg::copy_of_type(send == MPI_IN_PLACE ? recv : send, partial.data(), count, type, facts, r);
  const large_count_type t(count, type);
  bool have = false;  // recv holds a result
  range_round round(r.parent);
  for (int distance = 1; distance < r.size; distance *= 2) {
    if (rank + distance < r.size)
      round.send(partial.data(), count, type, r.parent_of(rank + distance), tag);
    const bool from_below = rank - distance >= 0;
    if (from_below) round.recv(theirs.data(), count, type, r.parent_of(rank - distance), tag);
    co_await round;
    if (!from_below) continue;
    if (have)
      call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), recv, t.count(), t.type(), op);
    else
      msg::copy_of_type(theirs.data(), recv, count, type, facts, r);
    have = true;
    call_mpi("MPI_Reduce_local", MPI_Reduce_local, theirs.data(), partial.data(), t.count(),
             t.type(), op);
  }
  co_return MPI_SUCCESS;
}

// Rank i's block at the root: `counts(i)` elements at `displs(i)` elements into recv; the
// root receives all blocks at once.
template <typename CountOf, typename DisplOf>
range_task gatherv(const void* send, MPI_Count send_count, MPI_Datatype send_type, void* recv,
                   CountOf counts, DisplOf displs, MPI_Datatype recv_type, int root,
                   range_handle r) {
  if (root < 0 || root >= r.size) co_return MPI_ERR_ROOT;
  const int tag = r.collective_tag(range_tags::gather);
  range_round round(r.parent);
  if (r.rank != root) {
    round.send(send, send_count, send_type, r.parent_of(root), tag);
    co_await round;
    co_return MPI_SUCCESS;
  }
  const MPI_Aint extent = msg::extent_of(recv_type);
  for (int i = 0; i < r.size; ++i) {
    void* block = advanced(recv, static_cast<MPI_Aint>(displs(i)) * extent);
    if (i != root)
      round.recv(block, counts(i), recv_type, r.parent_of(i), tag);
    else if (send != MPI_IN_PLACE)
      msg::copy(send, send_count, send_type, block, counts(i), recv_type, r);
  }
  co_await round;
  co_return MPI_SUCCESS;
}

// Ring: in step s, rank i passes on the block of rank i-s to rank i+1 and receives the block
// of rank i-s-1 from rank i-1, each straight into its place in recv. p - 1 steps: for large
// blocks, where each step's time is the block's transfer, not its latency.
template <typename CountOf, typename DisplOf>
range_task allgatherv_ring(const void* send, MPI_Count send_count, MPI_Datatype send_type,
                           void* recv, CountOf counts, DisplOf displs, MPI_Datatype recv_type,
                           range_handle r) {
  const int rank = r.rank;
  const int tag = r.collective_tag(range_tags::allgather);
  const MPI_Aint extent = msg::extent_of(recv_type);
  auto block = [&](int i) { return advanced(recv, static_cast<MPI_Aint>(displs(i)) * extent); };
  if (send != MPI_IN_PLACE)
    msg::copy(send, send_count, send_type, block(rank), counts(rank), recv_type, r);
  const int right = r.parent_of((rank + 1) % r.size);
  const int left = r.parent_of((rank - 1 + r.size) % r.size);
  range_round round(r.parent);
  for (int step = 0; step + 1 < r.size; ++step) {
    const int out = (rank - step + r.size) % r.size;
    const int in = (rank - step - 1 + r.size) % r.size;
    round.send(block(out), counts(out), recv_type, right, tag);
    round.recv(block(in), counts(in), recv_type, left, tag);
    co_await round;
  }
  co_return MPI_SUCCESS;
}

// Doubling (Bruck's order, each block straight into its place): before the round of distance
// d a rank holds the blocks of ranks rank .. rank + d - 1 (mod p); it sends the first
// m = min(d, p - d) of them to rank - d and receives as many, those of rank + d on, from
// rank + d. ceil(log2 p) rounds for the same p - 1 blocks each way as the ring: for small
// blocks, where a step's time is its latency. Where the offsets are the same at every rank
// (allgather's blocks in rank order: block_displ), blocks that lie one after another go as
// one message (all of a round's, but for the wrap from rank p - 1 to 0), and sender and
// receiver cut a run of blocks the same way. An allgatherv's offsets are each rank's own (MPI
// lets them differ), so there every block is a message of its own. Messages between two ranks
// in a round are matched in the order sent (one source, one tag).
template <typename CountOf, typename DisplOf>
range_task allgatherv_doubling(const void* send, MPI_Count send_count, MPI_Datatype send_type,
                               void* recv, CountOf counts, DisplOf displs, MPI_Datatype recv_type,
                               range_handle r) {
  const int rank = r.rank;
  const int p = r.size;
  const int tag = r.collective_tag(range_tags::allgather);
  const MPI_Aint extent = msg::extent_of(recv_type);
  auto block = [&](int i) { return advanced(recv, static_cast<MPI_Aint>(displs(i)) * extent); };
  if (send != MPI_IN_PLACE)
    msg::copy(send, send_count, send_type, block(rank), counts(rank), recv_type, r);
  // The blocks first, first + 1, ... (m of them, mod p), one message per stretch of blocks
  // that follow each other in recv: at (first block, elements).
  constexpr bool joinable = requires { DisplOf::same_at_every_rank; };
  auto for_each_stretch = [&](int first, int m, auto&& message) {
    int start = first;
    MPI_Count elements = counts(first);
    for (int j = 1; j < m; ++j) {
      const int previous = (first + j - 1) % p, next = (first + j) % p;
      if (joinable && next != 0 &&
          static_cast<MPI_Count>(displs(next)) ==
              static_cast<MPI_Count>(displs(previous)) + counts(previous)) {
        elements += counts(next);
      } else {
        message(start, elements);
        start = next;
        elements = counts(next);
      }
    }
    message(start, elements);
  };
  range_round round(r.parent);
  for (int d = 1; d < p; d *= 2) {
    const int m = d < p - d ? d : p - d;
    const int to = r.parent_of((rank - d + p) % p);
    const int from = r.parent_of((rank + d) % p);
    for_each_stretch(rank, m,
                     [&](int b, MPI_Count n) { round.send(block(b), n, recv_type, to, tag); });
    for_each_stretch((rank + d) % p, m,
                     [&](int b, MPI_Count n) { round.recv(block(b), n, recv_type, from, tag); });
    co_await round;
  }
  co_return MPI_SUCCESS;
}

// Below this many bytes in all, an allgather doubles (latency-bound); from it on, a ring
// (bandwidth-bound): MPICH's own switch point between the two.
inline constexpr MPI_Count allgather_ring_bytes = 512 * 1024;

// Rank i's block everywhere: `counts(i)` elements at `displs(i)` elements into recv. The
// bytes of each block are the same at every rank (MPI requires matching type signatures,
// though each rank may count in a receive type of its own), so every rank picks the same
// algorithm.
template <typename CountOf, typename DisplOf>
range_task allgatherv(const void* send, MPI_Count send_count, MPI_Datatype send_type, void* recv,
                      CountOf counts, DisplOf displs, MPI_Datatype recv_type, range_handle r) {
  const MPI_Count size = facts_of(recv_type).size;
  MPI_Count bytes = 0;
  for (int i = 0; i < r.size && bytes < allgather_ring_bytes; ++i) bytes += counts(i) * size;
  if (bytes < allgather_ring_bytes)
    return allgatherv_doubling(send, send_count, send_type, recv, counts, displs, recv_type, r);
  return allgatherv_ring(send, send_count, send_type, recv, counts, displs, recv_type, r);
}

// Fixed-size blocks: block i at i * count.
struct same_count {
  MPI_Count count;
  MPI_Count operator()(int) const { return count; }
};
struct block_displ {
  static constexpr bool same_at_every_rank = true;  // allgather's doubling may join blocks
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

// The entries, with MPI's parameters (the range in place of the communicator). Each `run`
// is the blocking function, and with a range_request* more the nonblocking one (MPI_Ibcast
// takes MPI_Bcast's parameters and a request): one algorithm, run to its end or started.
// The `_c` twins take MPI_Count counts and MPI_Aint displacements and run the same code.
namespace rc = range_collectives;

// A collective, started (range/collective_start.hpp: on the context and its own tags) and
// `algorithm(wire handle)` run to its end, or started on `request` (which then drives it).
template <typename Algorithm>
int run_or_start(const char* function, const range_handle& r, range_request* request,
                 Algorithm algorithm) {
  started_collective started = start_collective(r, function);
  range_task task = algorithm(started.wire);
  if (request == nullptr) return task.run();  // the registration ends on return
  return request->start(function, std::move(task), std::move(started.in_flight));
}

template <typename Unused = void>
struct range_barrier {
  static int run(range_handle r, range_request* q = nullptr) {
    return run_or_start("MPI_Ibarrier", r, q, [](const range_handle& w) { return rc::barrier(w); });
  }
};

template <typename Count>
struct range_bcast {
  static int run(void* b, Count c, MPI_Datatype t, int root, range_handle r,
                 range_request* q = nullptr) {
    return run_or_start("MPI_Ibcast", r, q,
                        [&](const range_handle& w) { return rc::bcast(b, c, t, root, w); });
  }
};

template <typename Count>
struct range_reduce {
  static int run(const void* s, void* b, Count c, MPI_Datatype t, MPI_Op op, int root,
                 range_handle r, range_request* q = nullptr) {
    return run_or_start("MPI_Ireduce", r, q,
                        [&](const range_handle& w) { return rc::reduce(s, b, c, t, op, root, w); });
  }
};

// allreduce, scan and exscan: the same parameters. Algorithm::start(...) starts the algorithm
// (a type, not a function pointer: naming a function template's address would compile its
// coroutine in every unit).
template <typename Count, typename Algorithm, const char* Nonblocking>
struct range_all_reduction {
  static int run(const void* s, void* b, Count c, MPI_Datatype t, MPI_Op op, range_handle r,
                 range_request* q = nullptr) {
    return run_or_start(Nonblocking, r, q,
                        [&](const range_handle& w) { return Algorithm::start(s, b, c, t, op, w); });
  }
};
struct allreduce_algorithm {
  template <typename... Args>
  static range_task start(Args... args) {
    return rc::allreduce(args...);
  }
};
struct scan_algorithm {
  template <typename... Args>
  static range_task start(Args... args) {
    return rc::scan(args...);
  }
};
struct exscan_algorithm {
  template <typename... Args>
  static range_task start(Args... args) {
    return rc::exscan(args...);
  }
};
inline constexpr char iallreduce_name[] = "MPI_Iallreduce";
inline constexpr char iscan_name[] = "MPI_Iscan";
inline constexpr char iexscan_name[] = "MPI_Iexscan";
template <typename Count>
using range_allreduce = range_all_reduction<Count, allreduce_algorithm, iallreduce_name>;
template <typename Count>
using range_scan = range_all_reduction<Count, scan_algorithm, iscan_name>;
template <typename Count>
using range_exscan = range_all_reduction<Count, exscan_algorithm, iexscan_name>;

template <typename Count>
struct range_gather {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, Count rc_, MPI_Datatype rt,
                 int root, range_handle r, range_request* q = nullptr) {
    return run_or_start("MPI_Igather", r, q, [&](const range_handle& w) {
      return rc::gatherv(s, sc, st, b, rc::same_count{rc_}, rc::block_displ{rc_}, rt, root, w);
    });
  }
};

template <typename Count, typename Displ>
struct range_gatherv {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, const Count* counts,
                 const Displ* displs, MPI_Datatype rt, int root, range_handle r,
                 range_request* q = nullptr) {
    return run_or_start("MPI_Igatherv", r, q, [&](const range_handle& w) {
      return rc::gatherv(s, sc, st, b, rc::from_array<Count>{counts}, rc::from_array<Displ>{displs},
                         rt, root, w);
    });
  }
};

template <typename Count>
struct range_allgather {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, Count rc_, MPI_Datatype rt,
                 range_handle r, range_request* q = nullptr) {
    return run_or_start("MPI_Iallgather", r, q, [&](const range_handle& w) {
      return rc::allgatherv(s, sc, st, b, rc::same_count{rc_}, rc::block_displ{rc_}, rt, w);
    });
  }
};

template <typename Count, typename Displ>
struct range_allgatherv {
  static int run(const void* s, Count sc, MPI_Datatype st, void* b, const Count* counts,
                 const Displ* displs, MPI_Datatype rt, range_handle r, range_request* q = nullptr) {
    return run_or_start("MPI_Iallgatherv", r, q, [&](const range_handle& w) {
      return rc::allgatherv(s, sc, st, b, rc::from_array<Count>{counts},
                            rc::from_array<Displ>{displs}, rt, w);
    });
  }
};

// A call with one count takes it as an MPI_Count in both of its forms: the int form's count
// widens, and a unit that compiles both (a call's large-count branch) compiles the algorithm's
// start (run_or_start) once. Arrays of counts keep their type (the v calls). (The structs stay
// templates on Count: a template's run is compiled only in a unit that calls it.)
template <>
struct range_backend<MPI_Barrier> : range_barrier<> {};
template <>
struct range_backend<MPI_Ibarrier> : range_barrier<> {};
template <>
struct range_backend<MPI_Bcast> : range_bcast<MPI_Count> {};
template <>
struct range_backend<MPI_Ibcast> : range_bcast<MPI_Count> {};
template <>
struct range_backend<MPI_Reduce> : range_reduce<MPI_Count> {};
template <>
struct range_backend<MPI_Ireduce> : range_reduce<MPI_Count> {};
template <>
struct range_backend<MPI_Allreduce> : range_allreduce<MPI_Count> {};
template <>
struct range_backend<MPI_Iallreduce> : range_allreduce<MPI_Count> {};
template <>
struct range_backend<MPI_Scan> : range_scan<MPI_Count> {};
template <>
struct range_backend<MPI_Iscan> : range_scan<MPI_Count> {};
template <>
struct range_backend<MPI_Exscan> : range_exscan<MPI_Count> {};
template <>
struct range_backend<MPI_Iexscan> : range_exscan<MPI_Count> {};
template <>
struct range_backend<MPI_Gather> : range_gather<MPI_Count> {};
template <>
struct range_backend<MPI_Igather> : range_gather<MPI_Count> {};
template <>
struct range_backend<MPI_Gatherv> : range_gatherv<int, int> {};
template <>
struct range_backend<MPI_Igatherv> : range_gatherv<int, int> {};
template <>
struct range_backend<MPI_Allgather> : range_allgather<MPI_Count> {};
template <>
struct range_backend<MPI_Iallgather> : range_allgather<MPI_Count> {};
template <>
struct range_backend<MPI_Allgatherv> : range_allgatherv<int, int> {};
template <>
struct range_backend<MPI_Iallgatherv> : range_allgatherv<int, int> {};

// The large-count twins, where the MPI has them (a function it lacks cannot be named).
#if defined(NAMPI_HAVE_MPI_BCAST_C)
template <>
struct range_backend<MPI_Bcast_c> : range_bcast<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IBCAST_C)
template <>
struct range_backend<MPI_Ibcast_c> : range_bcast<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_REDUCE_C)
template <>
struct range_backend<MPI_Reduce_c> : range_reduce<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IREDUCE_C)
template <>
struct range_backend<MPI_Ireduce_c> : range_reduce<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLREDUCE_C)
template <>
struct range_backend<MPI_Allreduce_c> : range_allreduce<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IALLREDUCE_C)
template <>
struct range_backend<MPI_Iallreduce_c> : range_allreduce<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_SCAN_C)
template <>
struct range_backend<MPI_Scan_c> : range_scan<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_ISCAN_C)
template <>
struct range_backend<MPI_Iscan_c> : range_scan<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_EXSCAN_C)
template <>
struct range_backend<MPI_Exscan_c> : range_exscan<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IEXSCAN_C)
template <>
struct range_backend<MPI_Iexscan_c> : range_exscan<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_GATHER_C)
template <>
struct range_backend<MPI_Gather_c> : range_gather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IGATHER_C)
template <>
struct range_backend<MPI_Igather_c> : range_gather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_GATHERV_C)
template <>
struct range_backend<MPI_Gatherv_c> : range_gatherv<MPI_Count, MPI_Aint> {};
#endif
#if defined(NAMPI_HAVE_MPI_IGATHERV_C)
template <>
struct range_backend<MPI_Igatherv_c> : range_gatherv<MPI_Count, MPI_Aint> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLGATHER_C)
template <>
struct range_backend<MPI_Allgather_c> : range_allgather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IALLGATHER_C)
template <>
struct range_backend<MPI_Iallgather_c> : range_allgather<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_ALLGATHERV_C)
template <>
struct range_backend<MPI_Allgatherv_c> : range_allgatherv<MPI_Count, MPI_Aint> {};
#endif
#if defined(NAMPI_HAVE_MPI_IALLGATHERV_C)
template <>
struct range_backend<MPI_Iallgatherv_c> : range_allgatherv<MPI_Count, MPI_Aint> {};
#endif

}  // namespace nampi::detail
