// The cost of reproducibility: what a program without it does, a local sum and one
// MPI_Allreduce (its result depends on the number of ranks and the data's distribution).
#include <mpi.h>

#include <numeric>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 100000));
  const int iters = static_cast<int>(args.get_int("iters", 10));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const auto local = micro::part(rank, n);
  double sum = 0;
  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      const double mine = std::accumulate(local.begin(), local.end(), 0.0);
      MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  });
  bench::report("reproducible_reduce", "mpi", size, seconds / iters, micro::checksum(sum));
  MPI_Finalize();
}
