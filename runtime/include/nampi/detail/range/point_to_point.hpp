// The range backend's point-to-point functions: MPI's own, on the parent communicator, with
// the peer's rank translated, and the status's MPI_SOURCE translated back. The nonblocking
// ones are coroutines (range/task.hpp) their results drive. A wildcard source
// takes only a message from a process of the range (RBC): probed for, then received.
#pragma once

#include <mpi.h>

#include "nampi/detail/range/backend.hpp"
#include "nampi/detail/range/messages.hpp"
#include "nampi/detail/range/task.hpp"

namespace nampi::detail::range_p2p {

// A pending message from a process of the range that matches `source` (a range rank or
// MPI_ANY_SOURCE) and `tag`, if there is one: its status says which (parent rank). A
// message from outside the range is never taken for a wildcard: each process of the
// range is asked in turn, so such a message cannot hide one from inside.
inline bool find(const range_handle& r, int source, int tag, MPI_Status& status) {
  int flag = 0;
  if (source != MPI_ANY_SOURCE) {  // a rank of the range, or MPI_PROC_NULL (MPI's answer)
    call_mpi("MPI_Iprobe", MPI_Iprobe, r.peer(source), tag, r.parent, &flag, &status);
    return flag != 0;
  }
  call_mpi("MPI_Iprobe", MPI_Iprobe, MPI_ANY_SOURCE, tag, r.parent, &flag, &status);
  if (flag != 0 && r.rank_of(status.MPI_SOURCE) != MPI_UNDEFINED) return true;
  if (flag == 0) return false;
  for (int rank = 0; rank < r.size; ++rank) {
    call_mpi("MPI_Iprobe", MPI_Iprobe, r.parent_of(rank), tag, r.parent, &flag, &status);
    if (flag != 0) return true;
  }
  return false;
}

// Blocks until find() succeeds (MPI_Probe where the source is known).
inline void wait_for(const range_handle& r, int source, int tag, MPI_Status& status) {
  if (source != MPI_ANY_SOURCE) {
    call_mpi("MPI_Probe", MPI_Probe, r.peer(source), tag, r.parent, &status);
    return;
  }
  while (!find(r, source, tag, status)) {
  }
}

// The caller's status, with the source as a rank of the range.
inline void hand_back(const range_handle& r, const MPI_Status& status, MPI_Status* out) {
  if (out == MPI_STATUS_IGNORE) return;
  *out = status;
  if (status.MPI_SOURCE != MPI_PROC_NULL) out->MPI_SOURCE = r.rank_of(status.MPI_SOURCE);
}

inline bool valid_peer(const range_handle& r, int rank) { return r.peer(rank) != MPI_UNDEFINED; }

template <typename Count>
int send(const void* buf, Count count, MPI_Datatype type, int dest, int tag, range_handle r) {
  if (!valid_peer(r, dest) || dest == MPI_ANY_SOURCE) return MPI_ERR_RANK;
  range_messages::send(buf, count, type, r.peer(dest), tag, r.parent);
  return MPI_SUCCESS;
}

template <typename Count>
int recv(void* buf, Count count, MPI_Datatype type, int source, int tag, range_handle r,
         MPI_Status* status) {
  if (!valid_peer(r, source)) return MPI_ERR_RANK;
  MPI_Status got;
  if (source == MPI_ANY_SOURCE) {
    wait_for(r, source, tag, got);  // then receive exactly that message
    source = r.rank_of(got.MPI_SOURCE);
    tag = got.MPI_TAG;
  }
  range_messages::recv(buf, count, type, r.peer(source), tag, r.parent, &got);
  hand_back(r, got, status);
  return MPI_SUCCESS;
}

inline int probe(int source, int tag, range_handle r, MPI_Status* status) {
  if (!valid_peer(r, source)) return MPI_ERR_RANK;
  MPI_Status got;
  wait_for(r, source, tag, got);
  hand_back(r, got, status);
  return MPI_SUCCESS;
}

inline int iprobe(int source, int tag, range_handle r, int* flag, MPI_Status* status) {
  if (!valid_peer(r, source)) return MPI_ERR_RANK;
  MPI_Status got;
  *flag = find(r, source, tag, got) ? 1 : 0;
  if (*flag != 0) hand_back(r, got, status);
  return MPI_SUCCESS;
}

// The send goes out first (nonblocking), so that two processes that exchange with a
// wildcard source cannot both wait for the other's message before sending.
template <typename Count>
int sendrecv(const void* send_buf, Count send_count, MPI_Datatype send_type, int dest, int send_tag,
             void* recv_buf, Count recv_count, MPI_Datatype recv_type, int source, int recv_tag,
             range_handle r, MPI_Status* status) {
  if (!valid_peer(r, dest) || dest == MPI_ANY_SOURCE || !valid_peer(r, source)) return MPI_ERR_RANK;
  if (source != MPI_ANY_SOURCE) {
    MPI_Status got;
    range_messages::sendrecv(send_buf, send_count, send_type, r.peer(dest), send_tag, recv_buf,
                             recv_count, recv_type, r.peer(source), recv_tag, r.parent, &got);
    hand_back(r, got, status);
    return MPI_SUCCESS;
  }
  const large_count_type sent(send_count, send_type);
  MPI_Request request = MPI_REQUEST_NULL;
  call_mpi("MPI_Isend", MPI_Isend, send_buf, sent.count(), sent.type(), r.peer(dest), send_tag,
           r.parent, &request);
  const int code = recv(recv_buf, recv_count, recv_type, source, recv_tag, r, status);
  call_mpi("MPI_Wait", MPI_Wait, &request, MPI_STATUS_IGNORE);
  return code;
}

// The nonblocking send: one MPI_Isend on the parent, completed by the result's wait/test.
template <typename Unused = void>
range_task isend(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                 range_handle r) {
  range_round round(r.parent);
  round.send(buf, count, type, r.peer(dest), tag);
  co_await round;
  co_return MPI_SUCCESS;
}

// The nonblocking receive: from a known source one MPI_Irecv on the parent; from any source
// of the range, each test() looks once for a message (find), wait() until there is one,
// which is then received.
template <typename Unused = void>
range_task irecv(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, range_handle r,
                 MPI_Status* status) {
  MPI_Status got;
  if (source == MPI_ANY_SOURCE) {
    while (!find(r, source, tag, got)) co_await range_poll{};
    source = r.rank_of(got.MPI_SOURCE);
    tag = got.MPI_TAG;
  }
  range_round round(r.parent);
  round.recv(buf, count, type, r.peer(source), tag, &got);
  co_await round;
  hand_back(r, got, status);
  co_return MPI_SUCCESS;
}

}  // namespace nampi::detail::range_p2p

namespace nampi::detail {

template <>
struct range_backend<MPI_Send> {
  static int run(const void* b, int c, MPI_Datatype t, int d, int g, range_handle r) {
    return range_p2p::send(b, c, t, d, g, r);
  }
};
template <>
struct range_backend<MPI_Recv> {
  static int run(void* b, int c, MPI_Datatype t, int s, int g, range_handle r, MPI_Status* st) {
    return range_p2p::recv(b, c, t, s, g, r, st);
  }
};
template <>
struct range_backend<MPI_Probe> {
  static int run(int s, int g, range_handle r, MPI_Status* st) {
    return range_p2p::probe(s, g, r, st);
  }
};
template <>
struct range_backend<MPI_Iprobe> {
  static int run(int s, int g, range_handle r, int* f, MPI_Status* st) {
    return range_p2p::iprobe(s, g, r, f, st);
  }
};
template <>
struct range_backend<MPI_Sendrecv> {
  static int run(const void* sb, int sc, MPI_Datatype st, int d, int sg, void* rb, int rc,
                 MPI_Datatype rt, int s, int rg, range_handle r, MPI_Status* status) {
    return range_p2p::sendrecv(sb, sc, st, d, sg, rb, rc, rt, s, rg, r, status);
  }
};

template <typename Count>
struct range_isend {
  static int run(const void* b, Count c, MPI_Datatype t, int d, int g, range_handle r,
                 range_request* q) {
    if (!range_p2p::valid_peer(r, d) || d == MPI_ANY_SOURCE) return MPI_ERR_RANK;
    return q->start("MPI_Isend", range_p2p::isend(b, c, t, d, g, r));
  }
};
template <typename Count>
struct range_irecv {
  static int run(void* b, Count c, MPI_Datatype t, int s, int g, range_handle r, range_request* q) {
    if (!range_p2p::valid_peer(r, s)) return MPI_ERR_RANK;
    return q->start("MPI_Irecv", range_p2p::irecv(b, c, t, s, g, r, q->status()));
  }
};
template <>
struct range_backend<MPI_Isend> : range_isend<int> {};
template <>
struct range_backend<MPI_Irecv> : range_irecv<int> {};
#if defined(NAMPI_HAVE_MPI_ISEND_C)
template <>
struct range_backend<MPI_Isend_c> : range_isend<MPI_Count> {};
#endif
#if defined(NAMPI_HAVE_MPI_IRECV_C)
template <>
struct range_backend<MPI_Irecv_c> : range_irecv<MPI_Count> {};
#endif

#if defined(NAMPI_HAVE_MPI_SEND_C)
template <>
struct range_backend<MPI_Send_c> {
  static int run(const void* b, MPI_Count c, MPI_Datatype t, int d, int g, range_handle r) {
    return range_p2p::send(b, c, t, d, g, r);
  }
};
#endif
#if defined(NAMPI_HAVE_MPI_RECV_C)
template <>
struct range_backend<MPI_Recv_c> {
  static int run(void* b, MPI_Count c, MPI_Datatype t, int s, int g, range_handle r,
                 MPI_Status* st) {
    return range_p2p::recv(b, c, t, s, g, r, st);
  }
};
#endif
#if defined(NAMPI_HAVE_MPI_SENDRECV_C)
template <>
struct range_backend<MPI_Sendrecv_c> {
  static int run(const void* sb, MPI_Count sc, MPI_Datatype st, int d, int sg, void* rb,
                 MPI_Count rc, MPI_Datatype rt, int s, int rg, range_handle r, MPI_Status* status) {
    return range_p2p::sendrecv(sb, sc, st, d, sg, rb, rc, rt, s, rg, r, status);
  }
};
#endif

}  // namespace nampi::detail
