// Receive buffers are sized by the extent of the blocks (max of displs +
// counts), so displacements with gaps never let MPI write past the end.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("allgatherv with gaps between the blocks") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<int> data(rank + 1, rank);
  std::vector<int> displs(size);
  for (int r = 0; r < size; ++r) displs[r] = 2 * r * (size + 1);  // wide gaps
  auto all = comm.allgatherv(send_buf(data), recv_counts(nampi_test::iota_counts(size)),
                             recv_displs(displs));
  REQUIRE(all.size() == static_cast<std::size_t>(displs.back() + size));
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < r + 1; ++i) CHECK(all[displs[r] + i] == r);
}

TEST_CASE("gatherv with gaps: the root's buffer covers the last block") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<int> data(rank + 1, rank);
  std::vector<int> displs(size);
  for (int r = 0; r < size; ++r) displs[r] = 3 * r * size + 1;
  auto all =
      comm.gatherv(send_buf(data), recv_counts(nampi_test::iota_counts(size)), recv_displs(displs));
  if (rank == 0) {
    REQUIRE(all.size() == static_cast<std::size_t>(displs.back() + size));
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < r + 1; ++i) CHECK(all[displs[r] + i] == r);
  } else {
    CHECK(all.empty());
  }
}
