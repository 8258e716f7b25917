// The user-facing example of the foundation issue (and of README.md), with
// every result checked.
#include <doctest/doctest.h>

#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("user example: allgatherv, out-parameters, allreduce_single, recv by probe, bcast") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<double> v(rank + 1, rank);  // rank r contributes r + 1 copies of r
  std::vector<double> expected_all;
  for (int r = 0; r < size; ++r) expected_all.insert(expected_all.end(), r + 1, r);

  auto all = comm.allgatherv(send_buf(v));
  CHECK(all == expected_all);

  std::vector<int> rc;
  auto [all2, counts, displs] = comm.allgatherv(
      send_buf(v), recv_counts_out<nampi::resize_to_fit>(std::move(rc)), recv_displs_out());
  CHECK(all2 == expected_all);
  CHECK(counts == nampi_test::iota_counts(size));
  CHECK(displs == nampi_test::triangle_displs(size));

  all.assign(3, -1.0);  // wrong size and contents: resize_to_fit must fix both
  comm.allgatherv(send_buf(v), recv_buf<nampi::resize_to_fit>(all), recv_counts(counts));
  CHECK(all == expected_all);

  const int sum = comm.allreduce_single(send_buf(rank), op(std::plus<>{}));
  CHECK(sum == size * (size - 1) / 2);

  if (size >= 2) {
    if (rank == 0) comm.send(send_buf(std::vector<int>{5, 6, 7}), dest(1));
    if (rank == 1) {
      auto data = comm.recv<int>(source(0));
      CHECK(data == std::vector<int>{5, 6, 7});
    }
  }

  std::vector<double> shared = rank == 0 ? expected_all : std::vector<double>{};
  comm.bcast(send_recv_buf(shared));
  CHECK(shared == expected_all);
}
