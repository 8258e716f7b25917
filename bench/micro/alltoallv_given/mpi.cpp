#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  auto data = micro::make_send(rank, size, n);
  auto counts = micro::make_counts(rank, size, n);
  auto displs = micro::make_displs(counts);
  std::vector<int> received(static_cast<std::size_t>(displs.back() + counts.back()));

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      MPI_Alltoallv(data.data(), counts.data(), displs.data(), MPI_INT, received.data(),
                    counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(received, rank, size, n);
  bench::report("alltoallv_given", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
