// Callables, one per adapter in nampi/detail/mpi/callables.hpp, with which the
// generated compile test (generated/tests/test_typed_signatures.cpp)
// instantiates every callable overload of the typed layer. Those of adapters
// with state carry a capture-like member, as a lambda with captures would.
#pragma once

#include <mpi.h>
#include <nampi/config.h>

#include <nampi/detail/mpi/handles.hpp>
#include <optional>

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
#ifdef NAMPI_HAVE_MPI_SESSION_CREATE_ERRHANDLER  // MPI 4.0; Open MPI 4.1 has no sessions
struct session_errhandler_function {
  void operator()(nampi::mpi::session, int) const {}
};
#endif

template <typename Handle>
struct copy_attr_function {
  int captured = 0;
  std::optional<void*> operator()(Handle, int, void*) { return std::nullopt; }
};
template <typename Handle>
struct delete_attr_function {
  int captured = 0;
  void operator()(Handle, int, void*) {}
};
struct comm_copy_attr_function : copy_attr_function<nampi::mpi::comm> {};
struct comm_delete_attr_function : delete_attr_function<nampi::mpi::comm> {};
struct type_copy_attr_function : copy_attr_function<nampi::mpi::datatype> {};
struct type_delete_attr_function : delete_attr_function<nampi::mpi::datatype> {};
struct win_copy_attr_function : copy_attr_function<nampi::mpi::win> {};
struct win_delete_attr_function : delete_attr_function<nampi::mpi::win> {};

struct grequest_query_function {
  int captured = 0;
  void operator()(MPI_Status&) {}
};
struct grequest_free_function {
  int captured = 0;
  void operator()() {}
};
struct grequest_cancel_function {
  int captured = 0;
  void operator()(bool) {}
};

struct datarep_conversion_function {
  int captured = 0;
  void operator()(void*, nampi::mpi::datatype, int, void*, MPI_Offset) {}
};
struct datarep_conversion_function_c {
  int captured = 0;
  void operator()(void*, nampi::mpi::datatype, MPI_Count, void*, MPI_Offset) {}
};
struct datarep_extent_function {
  int captured = 0;
  MPI_Aint operator()(nampi::mpi::datatype) { return 0; }
};

}  // namespace nampi_test::typed_callables
