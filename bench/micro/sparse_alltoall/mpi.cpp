// The sparse pattern with the standard calls: the receivers do not know who sends them how
// much, so the counts go first (MPI_Alltoall), then the data (MPI_Alltoallv): O(p) arrays.
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
  std::vector<int> send, send_counts(static_cast<std::size_t>(size)),
      send_displs(send_counts.size());
  for (int to = 0; to < size; ++to) {
    if (!micro::sends_to(rank, to, size, peers)) continue;
    const auto m = micro::message(rank, to, n);
    send_counts[static_cast<std::size_t>(to)] = n;
    send.insert(send.end(), m.begin(), m.end());
  }
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::vector<int> recv_counts(send_counts.size()), recv_displs(send_counts.size()), received;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
      std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
      received.resize(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
      MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_INT, received.data(),
                    recv_counts.data(), recv_displs.data(), MPI_INT, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(received, rank, size, n, peers);
  bench::report("sparse_alltoall", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
