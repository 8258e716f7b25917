#include <algorithm>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>
#include <unordered_map>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::sparse_alltoall> comm;
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int rank = comm.rank(), size = comm.size();
  const int peers = micro::peers_of(args, size);
  std::unordered_map<int, std::vector<int>> out;
  for (int to : micro::destinations(rank, size, peers))
    out.emplace(to, micro::message(rank, to, n));

  std::vector<std::pair<int, std::vector<int>>> in;
  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) in = comm.alltoallv_sparse(sparse_send_buf(out));
  });
  std::sort(in.begin(), in.end());
  std::vector<int> received;
  for (const auto& [from, data] : in) received.insert(received.end(), data.begin(), data.end());
  auto checksum = micro::check(received, rank, size, n, peers);
  bench::report("sparse_alltoall", "nampi", size, seconds / iters, bench::hex(checksum));
}
