// The sort plugin: random, all-equal, sorted, reverse and few-distinct inputs, equal and
// unequal sizes per rank, with std::less and std::greater: afterwards the ranks' vectors in
// rank order are the sorted input (checked at rank 0 against a sequential sort), and with m
// elements per rank every rank ends with fewer than 2m + p; the MPI calls are one sample
// exchange (MPI_Allgather of the counts, MPI_Allgatherv) and one data exchange (MPI_Alltoall of
// the counts, MPI_Alltoallv). On 1..8 ranks.

// ctest-labels: ranks8
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sort.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

namespace {

using comm_type = nampi::BasicCommunicator<nampi::plugins::sort>;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

enum class input { random, all_equal, sorted, reverse, few_distinct };

std::vector<long> make(input kind, int r, std::size_t count) {
  std::vector<long> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const long g = static_cast<long>(r) * 100000 + static_cast<long>(i);
    switch (kind) {
      case input::random:
        out[i] = static_cast<long>(mix(static_cast<std::uint64_t>(g)) % 100000);
        break;
      case input::all_equal:
        out[i] = 42;
        break;
      case input::sorted:
        out[i] = g;
        break;
      case input::reverse:
        out[i] = -g;
        break;
      case input::few_distinct:
        out[i] = static_cast<long>(mix(static_cast<std::uint64_t>(g)) % 3);
        break;
    }
  }
  return out;
}

template <typename Compare>
void check_sorted(const comm_type& comm, const std::vector<long>& input,
                  const std::vector<long>& output, Compare comp) {
  const auto all_in = comm.gatherv(send_buf(input));
  const auto all_out = comm.gatherv(send_buf(output));
  if (comm.rank() == 0) {
    auto expected = all_in;
    std::sort(expected.begin(), expected.end(), comp);
    CHECK(all_out == expected);
  }
}

}  // namespace

TEST_CASE("sort plugin: sorted in rank order, balanced within 2m + p") {
  comm_type comm;
  const int p = comm.size(), r = comm.rank();
  for (input kind :
       {input::random, input::all_equal, input::sorted, input::reverse, input::few_distinct}) {
    for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(m);
      const auto in = make(kind, r, m);
      auto data = in;
      comm.sort(data);
      CHECK(std::is_sorted(data.begin(), data.end()));
      CHECK(data.size() < 2 * m + static_cast<std::size_t>(p));
      check_sorted(comm, in, data, std::less<>{});
    }
  }
}

TEST_CASE("sort plugin: the MPI calls it issues") {
  comm_type comm;
  auto data = make(input::random, comm.rank(), 100);
  nampi_pmpi_reset();
  comm.sort(data);
  const auto calls = nampi_pmpi::snapshot();
  if (comm.size() == 1) {
    CHECK(calls.empty());  // a local sort
  } else {
    CHECK(calls == std::map<std::string, unsigned long long>{{"MPI_Allgather", 1},
                                                             {"MPI_Allgatherv", 1},
                                                             {"MPI_Alltoall", 1},
                                                             {"MPI_Alltoallv", 1}});
  }
}

TEST_CASE("sort plugin: a comparator, unequal sizes, empty ranks") {
  comm_type comm;
  const int p = comm.size(), r = comm.rank();
  for (input kind : {input::random, input::few_distinct, input::sorted}) {
    CAPTURE(static_cast<int>(kind));
    const auto in =
        make(kind, r, r % 2 == 0 ? static_cast<std::size_t>(50 * r) : 3);  // rank 0 holds none
    auto data = in;
    comm.sort(data, std::greater<>{});
    CHECK(std::is_sorted(data.begin(), data.end(), std::greater<>{}));
    check_sorted(comm, in, data, std::greater<>{});
    (void)p;
  }
}
