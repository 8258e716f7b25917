// The direct exchange when the receiver does not know its counts: MPI_Alltoall of the counts,
// then one MPI_Alltoallv (p partners per rank).
#include <mpi.h>

#include <numeric>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 1));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const auto data = micro::make_send(rank, size, n);
  const auto counts = micro::make_counts(rank, size, n);
  std::vector<int> send_displs(counts.size()), recv_counts(counts.size()),
      recv_displs(counts.size()), received;
  std::exclusive_scan(counts.begin(), counts.end(), send_displs.begin(), 0);

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      MPI_Alltoall(counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
      std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
      received.resize(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
      MPI_Alltoallv(data.data(), counts.data(), send_displs.data(), MPI_INT, received.data(),
                    recv_counts.data(), recv_displs.data(), MPI_INT, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(received, rank, size, n);
  bench::report("grid_alltoallv", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
