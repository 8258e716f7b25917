// Communicator management as named calls (spec/bindings/communicators.yaml),
// beyond what the generated call tests check: a rank left out gets a null
// communicator, keys reorder, a duplicate is a separate context, the new
// communicators carry calls; idup; and nampi::wtime. (split_type's default is
// checked by the generated test_split_type.)
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("split: color MPI_UNDEFINED leaves a rank out with a null communicator") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  // Ranks 0, 2, 4, ... join; the others are left out.
  nampi::OwnedCommunicator even = comm.split(color(rank % 2 == 0 ? 0 : MPI_UNDEFINED));
  if (rank % 2 == 0) {
    REQUIRE_FALSE(even.is_null());
    CHECK(even.size() == (size + 1) / 2);
    CHECK(even.rank() == rank / 2);
    // The new communicator carries named calls: the sum of the old ranks of its members.
    int expected = 0;
    for (int r = 0; r < size; r += 2) expected += r;
    CHECK(even.allreduce_single(send_buf(rank), op(std::plus<>{})) == expected);
  } else {
    CHECK(even.is_null());
    CHECK(even.size() == 0);
    CHECK(even.rank() == MPI_UNDEFINED);
  }
}

TEST_CASE("split: key orders the new ranks; equal keys keep the old order") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  nampi::OwnedCommunicator reversed = comm.split(color(0), key(size - rank));
  CHECK(reversed.size() == size);
  CHECK(reversed.rank() == size - 1 - rank);
  // Every rank's old rank, gathered in the new order: size - 1, ..., 0.
  std::vector<int> expected;
  for (int r = size - 1; r >= 0; --r) expected.push_back(r);
  CHECK(reversed.allgather(send_buf(rank)) == expected);

  nampi::OwnedCommunicator same = comm.split(color(0), key(7));
  CHECK(same.rank() == rank);
}

TEST_CASE("dup: a separate context (a message on the duplicate is not seen on the original)") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  nampi::OwnedCommunicator twin = comm.dup();  // congruent: the generated test_dup checks it
  if (size < 2) return;
  if (rank == 0) twin.send(send_buf(42), dest(1), tag(5));
  if (rank == 1) {
    // The message is on its way on `twin`: `comm` never sees it, `twin` does.
    int flag = 0;
    MPI_Status status;
    REQUIRE(MPI_Probe(0, 5, twin.mpi_communicator(), &status) == MPI_SUCCESS);
    REQUIRE(MPI_Iprobe(0, 5, comm.mpi_communicator(), &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK(status.MPI_SOURCE == 0);
    CHECK(twin.recv_single<int>(source(0), tag(5)) == 42);
  }
}

TEST_CASE("idup: the duplicate is there once wait() returns, and carries calls") {
  nampi::Communicator comm;
  const int size = comm.size();
  auto pending = comm.idup();
  // Work on the original may overlap the duplication.
  CHECK(comm.allreduce_single(send_buf(1), op(std::plus<>{})) == size);
  nampi::OwnedCommunicator twin = pending.wait();
  REQUIRE_FALSE(twin.is_null());
  CHECK(twin.rank() == comm.rank());
  CHECK(twin.size() == size);
  CHECK(nampi_test::compare(twin, comm) == MPI_CONGRUENT);
  CHECK(twin.allreduce_single(send_buf(comm.rank()), op(std::plus<>{})) == size * (size - 1) / 2);
}

TEST_CASE("idup into a caller's communicator; a result destroyed unread frees its duplicate") {
  nampi::Communicator comm;
  nampi::OwnedCommunicator twin;
  auto pending = comm.idup(new_comm_out(twin));
  CHECK(twin.is_null());  // not before the call completes
  pending.wait();
  CHECK(twin.size() == comm.size());
  CHECK(nampi_test::compare(twin, comm) == MPI_CONGRUENT);

  nampi_pmpi_reset();
  {
    auto unread = comm.idup();
  }  // its destructor waits; the duplicate is freed, never adopted, and so is the one the
     // call started beside it for nampi's own context (nampi/detail/own_context.hpp)
  CHECK(nampi_pmpi_count(nampi_pmpi_index("MPI_Comm_idup")) == 2);
  CHECK(nampi_pmpi_count(nampi_pmpi_index("MPI_Comm_free")) == 2);
  CHECK(nampi_pmpi_count(nampi_pmpi_index("MPI_Comm_rank")) == 0);
  CHECK(nampi_pmpi_count(nampi_pmpi_index("MPI_Comm_set_attr")) == 0);
}

TEST_CASE("wtime advances; wtick is its resolution") {
  const double start = nampi::wtime();
  const double tick = nampi::wtick();
  CHECK(tick > 0.0);
  CHECK(tick < 1.0);
  double now = nampi::wtime();
  while (now <= start) now = nampi::wtime();
  CHECK(now > start);
}
