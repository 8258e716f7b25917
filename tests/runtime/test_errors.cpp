// Errors: an MPI failure becomes nampi::mpi_error (call name, MPI's error
// string, error class); a run-time misuse of the C++ API becomes
// nampi::usage_error. Every error here is detected locally by MPI's argument
// checks on every rank alike, so no rank is left waiting in a collective.
#include <doctest/doctest.h>

#include <cstring>
#include <nampi/nampi.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

int mpi_error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

// Runs f, which must throw mpi_error; returns a copy of it.
template <typename F>
nampi::mpi_error expect_mpi_error(F&& f) {
  try {
    f();
  } catch (const nampi::mpi_error& e) {
    return e;
  }
  FAIL("no nampi::mpi_error thrown");
  return nampi::mpi_error("none", MPI_SUCCESS);
}

void check_error(const nampi::mpi_error& e, const char* call, int expected_class) {
  const std::string what = e.what();
  CHECK(std::strcmp(e.call(), call) == 0);
  CHECK(what.find(call) != std::string::npos);
  CHECK(what.find(mpi_error_string(e.code())) != std::string::npos);
  CHECK(e.code() != MPI_SUCCESS);
  CHECK(e.error_class() == mpi_error_class(e.code()));
  CHECK(e.error_class() == expected_class);
}

}  // namespace

TEST_CASE("exception types") {
  static_assert(std::is_base_of_v<std::runtime_error, nampi::mpi_error>);
  static_assert(std::is_base_of_v<std::logic_error, nampi::usage_error>);
  const nampi::mpi_error e("MPI_Send", MPI_ERR_TAG);
  CHECK(e.error_class() == MPI_ERR_TAG);
  CHECK(e.code() == MPI_ERR_TAG);
  CHECK(std::string(e.what()) == "MPI_Send: " + mpi_error_string(MPI_ERR_TAG));
}

TEST_CASE("an invalid datatype throws mpi_error with MPI_ERR_TYPE") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const auto e = expect_mpi_error(
      [&] { comm.allgatherv(send_buf(data), send_type(MPI_DATATYPE_NULL), recv_type(MPI_INT)); });
  check_error(e, "MPI_Allgatherv", MPI_ERR_TYPE);
  // The communicator is still usable.
  CHECK(comm.allgatherv(send_buf(data)) == nampi_test::staircase(comm.size()));
}

TEST_CASE("a negative count throws mpi_error with MPI_ERR_COUNT") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const auto e = expect_mpi_error([&] {
    comm.allgatherv(send_buf(data), send_count(-1),
                    recv_counts(nampi_test::iota_counts(comm.size())),
                    recv_displs(nampi_test::triangle_displs(comm.size())));
  });
  check_error(e, "MPI_Allgatherv", MPI_ERR_COUNT);
}

TEST_CASE("an invalid root throws mpi_error with MPI_ERR_ROOT") {
  nampi::Communicator comm;
  std::vector<int> data(3, comm.rank());
  SUBCASE("in the call") {
    const auto e = expect_mpi_error(
        [&] { comm.bcast(send_recv_buf(data), send_recv_count(3), root(comm.size() + 5)); });
    check_error(e, "MPI_Bcast", MPI_ERR_ROOT);
  }
  SUBCASE("in an inference rule (the broadcast of the count)") {
    const auto e = expect_mpi_error([&] { comm.bcast(send_recv_buf(data), root(-7)); });
    check_error(e, "MPI_Bcast", MPI_ERR_ROOT);
  }
  CHECK(data == std::vector<int>(3, comm.rank()));
}

// MPI_COMM_NULL makes a null Communicator (no error); a call on it is MPI's error.
TEST_CASE("a call on a null communicator throws mpi_error with MPI_ERR_COMM") {
  const nampi::Communicator comm(MPI_COMM_NULL);
  const auto e = expect_mpi_error([&] { comm.barrier(); });
  check_error(e, "MPI_Barrier", MPI_ERR_COMM);
}

TEST_CASE("usage errors say nampi, the call and the problem") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  std::vector<int> out(1);
  std::string message;
  try {
    comm.allgatherv(send_buf(data), recv_buf(out),
                    recv_counts(nampi_test::iota_counts(comm.size())));
  } catch (const nampi::usage_error& e) {
    message = e.what();
  }
  if (comm.size() == 1) {
    CHECK(message.empty());  // one element is enough for one rank
  } else {
    CHECK(message.rfind("nampi: allgatherv: ", 0) == 0);
    CHECK(message.find("recv_buf") != std::string::npos);
  }
}
