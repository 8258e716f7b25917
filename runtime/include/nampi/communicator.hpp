// Communicator: an MPI communicator with every generated call as a member.
#pragma once

#include <mpi.h>

#include "nampi/call_support.hpp"
#include "nampi/generated/all_calls.hpp"

namespace nampi {

class Communicator : public generated::all_calls<Communicator> {
 public:
  // MPI_COMM_WORLD.
  Communicator() : Communicator(MPI_COMM_WORLD) {}

  // Wraps (does not own) an MPI communicator; rank and size are read once so
  // that calls never ask MPI for them again.
  explicit Communicator(MPI_Comm comm) : comm_(comm) {
    detail::call_mpi("MPI_Comm_rank", MPI_Comm_rank, comm_, &rank_);
    detail::call_mpi("MPI_Comm_size", MPI_Comm_size, comm_, &size_);
  }

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  MPI_Comm mpi_communicator() const noexcept { return comm_; }

  // What the inference rules of a call need to know (see infer.hpp).
  detail::call_context call_context(const char* call) const noexcept {
    return {call, comm_, rank_, size_};
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace nampi
