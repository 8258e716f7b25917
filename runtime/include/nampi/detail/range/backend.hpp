// The range backend: nampi::detail::range_backend<MPI_X> is a range communicator's version of
// the MPI function MPI_X, with MPI's own parameters (the range in place of the communicator)
// and MPI's error codes. spec/backends.yaml lists the functions it has; the generator checks
// that each one is specialized here (range/point_to_point.hpp, range/collectives.hpp).
#pragma once

#include "nampi/detail/range/handle.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

template <auto Function>
struct range_backend;

// A range algorithm's error code: mpi_error unless it succeeded. Checked even with
// NAMPI_ERRORS_ARE_FATAL: the backend's own errors (a rank outside the range) never passed
// through MPI's handler.
inline void check_range_code(const char* name, int code) {
  if (code != MPI_SUCCESS) [[unlikely]]
    throw_mpi_error(name, code);
}

// An MPI call of a generated body or a rule on a range communicator (declared next to
// the MPI backend's in nampi/detail/infer.hpp): the backend's version of Function.
template <auto Function, typename... Args>
void call_mpi(const range_context&, const char* name, Args... args) {
  check_range_code(name, range_backend<Function>::run(args...));
}

}  // namespace nampi::detail
