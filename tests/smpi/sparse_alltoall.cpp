// The sparse_alltoall plugin under SMPI, which links but does not implement the matched
// probes (the plugin then probes with MPI_Iprobe): each rank sends to the next rank and to
// the rank 5 ahead, three exchanges in a row (the plugin's tag alternates through an
// attribute whose keyval is a function-local static: it must be per simulated rank), every
// received message checked.
#include <algorithm>
#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>
#include <utility>
#include <vector>

#include "smpi_check.hpp"

using namespace nampi::params;

namespace {

using comm_type = nampi::BasicCommunicator<nampi::plugins::sparse_alltoall>;

// What `from` sends to `to` in exchange `round`: nothing unless `to` is next or 5 ahead.
std::vector<int> message(int from, int to, int size, int round) {
  if (to != (from + 1) % size && to != (from + 5) % size) return {};
  std::vector<int> out(static_cast<std::size_t>((from + to + round) % 4 + 1));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = 100000 * round + 100 * from + static_cast<int>(i);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  comm_type comm;
  const int rank = comm.rank();
  const int size = comm.size();
  for (int round = 0; round < 3; ++round) {
    std::map<int, std::vector<int>> outgoing;
    for (int to : {(rank + 1) % size, (rank + 5) % size})
      if (auto m = message(rank, to, size, round); !m.empty()) outgoing[to] = std::move(m);
    auto received = comm.alltoallv_sparse(sparse_send_buf(outgoing));
    std::sort(received.begin(), received.end());
    std::vector<std::pair<int, std::vector<int>>> expected;
    for (int from = 0; from < size; ++from)
      if (auto m = message(from, rank, size, round); !m.empty())
        expected.emplace_back(from, std::move(m));
    SMPI_CHECK(rank, received == expected);
  }
  const int failed = comm.allreduce_single(send_buf(nampi_smpi::failures()), op(std::plus<>{}));
  if (rank == 0) std::printf("sparse_alltoall: %d ranks, %d failed checks\n", size, failed);
  return failed == 0 ? 0 : 1;
}
