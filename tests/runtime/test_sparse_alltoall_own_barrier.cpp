// The sparse_alltoall plugin with nampi's own dissemination barrier for NBX's termination (the
// choice on SimGrid's SMPI, forced here on every MPI): the data of many exchanges in a row
// (the barrier's tags alternate as the data tags do), no MPI_Ibarrier, and the barrier's
// messages: ceil(log2 p) rounds of one empty MPI_Isend and MPI_Irecv each.
#define NAMPI_SPARSE_OWN_BARRIER 1

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>
#include <utility>
#include <vector>

using namespace nampi::params;

namespace {

using comm_type = nampi::BasicCommunicator<nampi::plugins::sparse_alltoall>;

int rounds_of(int p) {
  int rounds = 0;
  for (int d = 1; d < p; d *= 2) ++rounds;
  return rounds;
}

}  // namespace

TEST_CASE(
    "alltoallv_sparse, own barrier: many exchanges in a row, each one's data, no MPI_Ibarrier") {
  comm_type comm;
  const int rank = comm.rank(), p = comm.size();
  for (int call = 0; call < 20; ++call) {
    // To the next rank and to the rank `call` ahead (mod p): the pattern changes every call.
    std::map<int, std::vector<int>> out;
    for (const int to : {(rank + 1) % p, (rank + call) % p})
      out[to] = std::vector<int>{rank, to, call};
    nampi_pmpi_reset();
    auto in = comm.alltoallv_sparse(sparse_send_buf(out));
    const auto calls = nampi_pmpi::snapshot();
    std::sort(in.begin(), in.end());
    std::vector<std::pair<int, std::vector<int>>> expected;
    for (int from = 0; from < p; ++from)
      if ((from + 1) % p == rank || (from + call) % p == rank)
        expected.emplace_back(from, std::vector<int>{from, rank, call});
    CHECK(in == expected);
    CHECK(calls.count("MPI_Ibarrier") == 0);
    const unsigned long long sent = out.size();
    // The data's synchronous sends, and one empty send and receive per barrier round.
    CHECK(calls.at("MPI_Issend") == sent);
    if (p > 1) {
      CHECK(calls.at("MPI_Isend") == static_cast<unsigned long long>(rounds_of(p)));
      CHECK(calls.at("MPI_Irecv") == static_cast<unsigned long long>(rounds_of(p)));
    }
  }
}
