// Matched messages (MPI_Mprobe, MPI_Improbe): the handle that only
// mrecv/imrecv can receive, with the status that tells its source, tag and size.
#pragma once

#include <mpi.h>

namespace nampi {

// What mprobe returns.
struct message {
  MPI_Message handle = MPI_MESSAGE_NULL;
  MPI_Status status{};

  // The MPI handle, as every nampi type that holds one gives it.
  MPI_Message mpi_handle() const noexcept { return handle; }
  int source() const noexcept { return status.MPI_SOURCE; }
  int tag() const noexcept { return status.MPI_TAG; }
};

// What improbe returns: a message, if one matched (MPI sets `found`).
struct maybe_message : message {
  int found = 0;

  explicit operator bool() const noexcept { return found != 0; }
};

}  // namespace nampi
