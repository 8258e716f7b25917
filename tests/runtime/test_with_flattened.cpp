// nampi::with_flattened: per-destination vectors and a map of them, flattened into send_buf +
// send_counts for alltoallv in one expression; the received data checked; one MPI_Alltoall
// (the inferred receive counts) and one MPI_Alltoallv; a destination outside the ranks throws.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/flatten.hpp>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

namespace {
// Rank `from` sends (from + to) % 3 values to rank `to`.
std::vector<int> message(int from, int to) {
  return std::vector<int>(static_cast<std::size_t>((from + to) % 3), 100 * from + to);
}
std::vector<int> expected_at(int to, int p) {
  std::vector<int> out;
  for (int from = 0; from < p; ++from) {
    const auto m = message(from, to);
    out.insert(out.end(), m.begin(), m.end());
  }
  return out;
}
}  // namespace

TEST_CASE("with_flattened: nested vectors and a map, into alltoallv in one expression") {
  nampi::Communicator comm;
  const int p = comm.size(), r = comm.rank();
  std::vector<std::vector<int>> nested(static_cast<std::size_t>(p));
  std::map<int, std::vector<int>> by_rank;
  for (int to = 0; to < p; ++to) {
    nested[static_cast<std::size_t>(to)] = message(r, to);
    const int d = p - 1 - to;  // inserted out of order; the empty ones left out
    if (!message(r, d).empty()) by_rank[d] = message(r, d);
  }
  nampi_pmpi_reset();
  auto received = nampi::with_flattened(nested).call(
      [&](auto... flat) { return comm.alltoallv(std::move(flat)...); });
  const auto calls = nampi_pmpi::snapshot();
  CHECK(received == expected_at(r, p));
  CHECK(calls.at("MPI_Alltoall") == 1);
  CHECK(calls.at("MPI_Alltoallv") == 1);
  auto from_map =
      nampi::with_flattened(by_rank, static_cast<std::size_t>(p)).call([&](auto... flat) {
        return comm.alltoallv(std::move(flat)...);
      });
  CHECK(from_map == expected_at(r, p));
  auto [data, counts] = nampi::with_flattened(nested);
  CHECK(counts.size() == static_cast<std::size_t>(p));
  CHECK(counts[static_cast<std::size_t>(r)] == (2 * r) % 3);
}

TEST_CASE("with_flattened: a destination outside the ranks, too many containers") {
  std::map<int, std::vector<int>> bad{{5, {1}}};
  CHECK_THROWS_AS(nampi::with_flattened(bad, 2), nampi::usage_error);
  std::vector<std::vector<int>> three(3);
  CHECK_THROWS_AS(nampi::with_flattened(three, 2), nampi::usage_error);
}
