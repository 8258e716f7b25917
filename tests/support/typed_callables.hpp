// Capture-free callables, one per adapter in nampi/mpi/callables.hpp, with which
// the generated compile test (generated/tests/test_typed_signatures.cpp)
// instantiates every callable overload of the typed layer.
#pragma once

#include <mpi.h>

#include <nampi/mpi/handles.hpp>

namespace nampi_test::typed_callables {

struct user_function {
  void operator()(const void*, void*, int, nampi::mpi::datatype) const {}
};
struct user_function_c {
  void operator()(const void*, void*, MPI_Count, nampi::mpi::datatype) const {}
};
struct comm_errhandler_function {
  void operator()(nampi::mpi::comm, int) const {}
};
struct win_errhandler_function {
  void operator()(nampi::mpi::win, int) const {}
};
struct file_errhandler_function {
  void operator()(nampi::mpi::file, int) const {}
};
struct session_errhandler_function {
  void operator()(nampi::mpi::session, int) const {}
};

}  // namespace nampi_test::typed_callables
