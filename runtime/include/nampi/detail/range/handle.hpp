// A range communicator's ranks as seen by its backend: the ranks first, first + stride, ...
// (size of them) of a parent MPI communicator, and the translation between the two.
#pragma once

#include <mpi.h>

#include "nampi/detail/own_context.hpp"
#include "nampi/detail/range/request.hpp"

namespace nampi::detail {

struct range_handle {
  MPI_Comm parent;
  int first;   // the parent rank of range rank 0
  int stride;  // >= 1
  int size;
  int rank;  // this process's rank in the range
  // The tag the range was made with, or no_tag. In a collective's own handle
  // (range/collective_start.hpp): the first of the tags of the collective on the context.
  int tag;
  // nampi's own context of the parent (nampi/detail/own_context.hpp), where the collectives send;
  // nullptr where the parent has none.
  own_context* context = nullptr;
  const char* call = nullptr;  // the nampi call running on it (call_context), for messages

  static constexpr int no_tag = -1;

  // In a collective's own handle: the tag of its messages of a kind (range/tags.hpp).
  int collective_tag(int kind) const noexcept { return tag + kind; }

  // What tells its collectives from others' (nampi/detail/own_context.hpp).
  range_identity identity() const noexcept {
    return {first, stride, size, tag, context != nullptr && parent == context->comm()};
  }

  // A range rank's parent rank.
  int parent_of(int rank) const noexcept { return first + rank * stride; }

  // A parent rank's rank in the range, or MPI_UNDEFINED where it is not in it.
  int rank_of(int parent_rank) const noexcept {
    const int offset = parent_rank - first;
    if (offset < 0 || offset % stride != 0 || offset / stride >= size) return MPI_UNDEFINED;
    return offset / stride;
  }

  // A peer argument (dest, source, root) as the parent's: MPI_PROC_NULL and MPI_ANY_SOURCE
  // stay what they are; a rank outside 0..size-1 gives MPI_UNDEFINED (the caller reports
  // MPI_ERR_RANK, as MPI would).
  int peer(int rank) const noexcept {
    if (rank == MPI_PROC_NULL || rank == MPI_ANY_SOURCE) return rank;
    return rank >= 0 && rank < size ? parent_of(rank) : MPI_UNDEFINED;
  }
};

// What the inference rules and the backend need to know about the call on a range
// (the range's counterpart of call_context, nampi/detail/infer.hpp): `comm` is the range.
struct range_context {
  using request_type = range_request;  // a nonblocking call's request (range/request.hpp)
  const char* call;
  range_handle comm;
  int rank;
  int size;
};

}  // namespace nampi::detail
