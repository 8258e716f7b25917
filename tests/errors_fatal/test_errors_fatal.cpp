// NAMPI_ERRORS_ARE_FATAL=1 (set for this whole executable, test main included):
// nampi leaves MPI's default error handler in place and does not check return
// codes, so calls cost what plain MPI calls cost. Errors abort inside MPI, which
// a test cannot observe; what it can check is that nampi did not install
// MPI_ERRORS_RETURN and that calls still work.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

static_assert(nampi::errors_are_fatal, "this test must be built with NAMPI_ERRORS_ARE_FATAL=1");

namespace {

bool handler_is(MPI_Comm comm, MPI_Errhandler expected) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(comm, &handler);
  const bool same = handler == expected;
  MPI_Errhandler_free(&handler);
  return same;
}

}  // namespace

TEST_CASE("errors fatal: MPI's default handler stays on MPI_COMM_WORLD and MPI_COMM_SELF") {
  CHECK(handler_is(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  CHECK(handler_is(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  CHECK_FALSE(handler_is(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

TEST_CASE("errors fatal: calls still deliver their data") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<int> local(static_cast<std::size_t>(rank + 1), rank);
  auto all = comm.allgatherv(send_buf(local));
  REQUIRE(all.size() == static_cast<std::size_t>(size * (size + 1) / 2));
  std::size_t i = 0;
  for (int r = 0; r < size; ++r)
    for (int k = 0; k <= r; ++k) CHECK(all[i++] == r);
  CHECK(comm.allreduce_single(send_buf(rank), op(std::plus<>{})) == size * (size - 1) / 2);
}
