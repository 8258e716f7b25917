// nampi::mpi user error classes, codes and strings, and error handlers given as C
// function pointers: values and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/environment.hpp>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
// The test's record of what the handler saw (a C handler has no user-data pointer).
int handled_code = MPI_SUCCESS;
int handled_calls = 0;

void record_comm_error(MPI_Comm*, int* code, ...) {
  handled_code = *code;
  ++handled_calls;
}
}  // namespace

TEST_CASE("add_error_class / code / string: MPI reports the user's class and text") {
  nampi_pmpi_reset();
  const int cls = mpi::add_error_class();
  const int code = mpi::add_error_code(cls);
  mpi::add_error_string(code, "nampi: user-defined error");
  CHECK(mpi::error_class(code) == cls);
  CHECK(mpi::error_string(code) == "nampi: user-defined error");
  // MPI_LASTUSEDCODE covers the new class. (Not necessarily the code: MPICH encodes codes
  // in bit fields above its classes and reports the last class here.)
  const mpi::comm_get_attr_result last = mpi::comm_get_attr(mpi::comm_world(), MPI_LASTUSEDCODE);
  REQUIRE(last.flag);
  CHECK(*static_cast<int*>(last.attribute_val) >= cls);
  CHECK(cls > MPI_ERR_LASTCODE);
  CHECK(code > MPI_ERR_LASTCODE);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Add_error_class", 1},
                                              {"MPI_Add_error_code", 1},
                                              {"MPI_Add_error_string", 1},
                                              {"MPI_Comm_get_attr", 1},
                                              {"MPI_Error_class", 1},
                                              {"MPI_Error_string", 1}});
#if defined(NAMPI_HAVE_MPI_REMOVE_ERROR_CLASS) && defined(NAMPI_HAVE_MPI_REMOVE_ERROR_CODE) && \
    defined(NAMPI_HAVE_MPI_REMOVE_ERROR_STRING)
  // MPI-4.1: undo in reverse order (string, then code, then class).
  nampi_pmpi_reset();
  mpi::remove_error_string(code);
  mpi::remove_error_code(code);
  mpi::remove_error_class(cls);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Remove_error_class", 1},
                                              {"MPI_Remove_error_code", 1},
                                              {"MPI_Remove_error_string", 1}});
#endif
}

TEST_CASE("a C error handler set on a communicator is called by comm_call_errhandler") {
  handled_calls = 0;
  nampi_pmpi_reset();
  {
    mpi::unique_comm dup = mpi::comm_dup(mpi::comm_world());
    // comm_dup copies MPI_COMM_WORLD's handler, which the test main set to MPI_ERRORS_RETURN.
    mpi::unique_errhandler inherited = mpi::comm_get_errhandler(dup);
    CHECK(inherited.get() == MPI_ERRORS_RETURN);
    CHECK_FALSE(inherited.owns());  // predefined: its owner frees nothing
    mpi::unique_errhandler handler = mpi::comm_create_errhandler(record_comm_error);
    mpi::comm_set_errhandler(dup, handler);
    mpi::errhandler_free(handler);  // the communicator keeps its own reference
    CHECK(handler.is_null());
    mpi::comm_call_errhandler(dup, MPI_ERR_TAG);
    CHECK(handled_calls == 1);
    CHECK(handled_code == MPI_ERR_TAG);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_call_errhandler", 1},
                                              {"MPI_Comm_create_errhandler", 1},
                                              {"MPI_Comm_dup", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_get_errhandler", 1},
                                              {"MPI_Comm_set_errhandler", 1},
                                              {"MPI_Errhandler_free", 1},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE("MPI_ERRORS_RETURN: comm_call_errhandler returns; mpi_error reports a user class") {
  const int cls = mpi::add_error_class();
  const int code = mpi::add_error_code(cls);
  mpi::add_error_string(code, "nampi: raised by the test");
  nampi_pmpi_reset();
  // The handler ran (and returned): MPI_Comm_call_errhandler itself succeeds.
  CHECK_NOTHROW(mpi::comm_call_errhandler(mpi::comm_world(), code));
  const nampi::mpi_error error("MPI_Comm_call_errhandler", code);
  CHECK(error.code() == code);
  CHECK(error.error_class() == cls);
  CHECK(std::string(error.what()) == "MPI_Comm_call_errhandler: nampi: raised by the test");
  // nampi::mpi_error asks MPI for the class and the text of the code.
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_call_errhandler", 1},
                                              {"MPI_Error_class", 1},
                                              {"MPI_Error_string", 1}});
}
