// What the inference rules of a call on a communicator need to know of it (call_context):
// its own header, so that the communicator class (nampi/detail/communicator_declared.hpp) needs
// none of the rules.
#pragma once

#include <mpi.h>

namespace nampi::detail {

// Everything a rule needs to know about the call it serves.
struct call_context {
  using request_type = MPI_Request;  // a nonblocking call's request
  const char* call;
  MPI_Comm comm;
  int rank;
  int size;
  // The topology's in- and out-neighbour counts once the call asked them (-1: not yet):
  // a neighbourhood call asks once, for its checks and its rules alike.
  mutable int neighbors_in = -1;
  mutable int neighbors_out = -1;
};

}  // namespace nampi::detail
