// The sparse_alltoall plugin under SMPI, which links but does not implement the matched
// probes (the plugin then probes with MPI_Iprobe and receives with MPI_Irecv from the probed
// source): each rank sends to the next rank and to the rank 5 ahead, three exchanges in a
// row (the plugin's tag alternates through an attribute whose keyval is a function-local
// static: it must be per simulated rank), every received message checked.
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
  // Two messages of different sizes from each sender to the same rank, and 6 senders per rank:
  // each probed message's receive (MPI_Irecv from its source, posted at once, waited for
  // later) must take that message, not the next one from the same source.
  {
    auto piece = [](int from, int to, int k) {
      std::vector<int> out(static_cast<std::size_t>(k == 0 ? 3 + (from + to) % 5 : 40 + from % 7));
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = 1000000 * k + 1000 * from + static_cast<int>(i);
      return out;
    };
    std::vector<std::pair<int, std::vector<int>>> outgoing;
    for (int k = 0; k < 2; ++k)
      for (int d = 1; d <= 6; ++d)
        outgoing.emplace_back((rank + d) % size, piece(rank, (rank + d) % size, k));
    auto received = comm.alltoallv_sparse(sparse_send_buf(outgoing));
    SMPI_CHECK(rank, received.size() == 12);
    std::map<int, int> next;  // the next message expected from each sender
    for (const auto& [from, data] : received) {
      const int k = next[from]++;
      SMPI_CHECK(rank, k < 2 && data == piece(from, rank, k));
    }
    SMPI_CHECK(rank, next.size() == 6);
  }
  const int failed = comm.allreduce_single(send_buf(nampi_smpi::failures()), op(std::plus<>{}));
  if (rank == 0) std::printf("sparse_alltoall: %d ranks, %d failed checks\n", size, failed);
  return failed == 0 ? 0 : 1;
}
