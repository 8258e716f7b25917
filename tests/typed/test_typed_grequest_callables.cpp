// nampi::mpi generalized requests from C++ callables with captures: grequest_start takes query,
// free and cancel callables and returns a typed request; grequest_complete and wait complete it.
// A shared_ptr captured by the callables shows that their state is released once free has run.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <memory>
#include <nampi/mpi/external.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <stdexcept>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

TEST_CASE("grequest_start from capturing lambdas: query fills the status, free runs once") {
  int queries = 0;
  int frees = 0;
  int cancels = 0;
  const auto alive = std::make_shared<int>(0);  // one more owner per callable the state holds
  nampi_pmpi_reset();
  mpi::request request = mpi::grequest_start(
      [&queries, alive](MPI_Status& status) {
        ++queries;
        mpi::status_set_elements(status, mpi::datatype(MPI_INT), 5);
        mpi::status_set_cancelled(status, false);
        status.MPI_SOURCE = 3;
        status.MPI_TAG = 42;
      },
      [&frees, alive] { ++frees; }, [&cancels, alive](bool) { ++cancels; });
  CHECK_FALSE(request.is_null());
  CHECK(alive.use_count() == 4);
  CHECK(queries == 0);
  mpi::grequest_complete(request);
  const MPI_Status status = mpi::wait(request);
  CHECK(request.is_null());
  CHECK(queries == 1);
  CHECK(frees == 1);
  CHECK(cancels == 0);
  CHECK(alive.use_count() == 1);  // nampi's free callback deleted the state
  CHECK(mpi::get_count(status, mpi::datatype(MPI_INT)) == 5);
  CHECK(status.MPI_SOURCE == 3);
  CHECK(status.MPI_TAG == 42);
  CHECK_FALSE(mpi::test_cancelled(status));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Get_count", 1},
                                              {"MPI_Grequest_complete", 1},
                                              {"MPI_Grequest_start", 1},
                                              {"MPI_Status_set_cancelled", 1},
                                              {"MPI_Status_set_elements", 1},
                                              {"MPI_Test_cancelled", 1},
                                              {"MPI_Wait", 1}});
}

TEST_CASE("grequest: MPI_Cancel runs the cancel callable before completion") {
  int frees = 0;
  int cancels = 0;
  bool complete_when_cancelled = true;
  bool cancelled = false;
  nampi_pmpi_reset();
  mpi::request request = mpi::grequest_start(
      [&cancelled](MPI_Status& status) {
        mpi::status_set_elements(status, mpi::datatype(MPI_BYTE), 0);
        mpi::status_set_cancelled(status, cancelled);
        status.MPI_SOURCE = MPI_UNDEFINED;
        status.MPI_TAG = MPI_UNDEFINED;
      },
      [&frees] { ++frees; },
      [&](bool complete) {
        ++cancels;
        complete_when_cancelled = complete;
        cancelled = !complete;  // not yet complete: the operation can still be called off
      });
  mpi::cancel(request);
  CHECK(cancels == 1);
  CHECK_FALSE(complete_when_cancelled);
  mpi::grequest_complete(request);
  const MPI_Status status = mpi::wait(request);
  CHECK(mpi::test_cancelled(status));
  CHECK(frees == 1);
  CHECK(cancels == 1);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Cancel", 1},
                                              {"MPI_Grequest_complete", 1},
                                              {"MPI_Grequest_start", 1},
                                              {"MPI_Status_set_cancelled", 1},
                                              {"MPI_Status_set_elements", 1},
                                              {"MPI_Test_cancelled", 1},
                                              {"MPI_Wait", 1}});
}

TEST_CASE(
    "grequest: what the query callable throws fails wait with an MPI error; free still runs") {
  int frees = 0;
  const auto alive = std::make_shared<int>(0);
  nampi_pmpi_reset();
  mpi::request request = mpi::grequest_start(
      [alive](MPI_Status&) { throw std::runtime_error("the query callable failed"); },
      [&frees, alive] { ++frees; }, [alive](bool) {});
  mpi::grequest_complete(request);
  int error_class = MPI_SUCCESS;
  try {
    mpi::wait(request);
  } catch (const nampi::mpi_error& e) {
    error_class = e.error_class();
    CHECK(std::string(e.call()) == "MPI_Wait");
  }
  CHECK(error_class == MPI_ERR_OTHER);
  CHECK(request.is_null());
  CHECK(frees == 1);
  CHECK(alive.use_count() == 1);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 1},
                                              {"MPI_Error_string", 1},
                                              {"MPI_Grequest_complete", 1},
                                              {"MPI_Grequest_start", 1},
                                              {"MPI_Wait", 1}});
}
