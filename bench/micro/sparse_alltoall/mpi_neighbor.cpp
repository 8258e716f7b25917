// The sparse pattern on a distributed graph communicator: MPI_Dist_graph_create_adjacent once,
// outside the timing (a program whose pattern stays the same makes it once), then one
// MPI_Neighbor_alltoallv per exchange with the counts known (n from each source). This is the
// exchange at its cheapest when every rank knows who sends to it, which the sparse all-to-all
// does not assume. bench/scale/run.py runs it beside mpi.cpp and nampi.cpp.
#include <mpi.h>

#include <numeric>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int peers = micro::peers_of(args, size);
  const std::vector<int> to = micro::destinations(rank, size, peers);
  const std::vector<int> from = micro::sources(rank, size, peers);
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(from.size()), from.data(),
                                 MPI_UNWEIGHTED, static_cast<int>(to.size()), to.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  std::vector<int> send;
  for (int d : to) {
    const auto m = micro::message(rank, d, n);
    send.insert(send.end(), m.begin(), m.end());
  }
  std::vector<int> send_counts(to.size(), n), send_displs(to.size());
  std::vector<int> recv_counts(from.size(), n), recv_displs(from.size());
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<int> received(from.size() * static_cast<std::size_t>(n));

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i)
      MPI_Neighbor_alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_INT,
                             received.data(), recv_counts.data(), recv_displs.data(), MPI_INT,
                             graph);
  });
  auto checksum = micro::check(received, rank, size, n, peers);
  bench::report("sparse_alltoall", "mpi_neighbor", size, seconds / iters, bench::hex(checksum));
  MPI_Comm_free(&graph);
  MPI_Finalize();
}
