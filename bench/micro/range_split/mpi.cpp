#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  long long total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      MPI_Comm half = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, micro::half_of(rank, size), rank, &half);
      int half_rank = 0;
      int half_size = 0;
      MPI_Comm_rank(half, &half_rank);
      MPI_Comm_size(half, &half_size);
      total += half_rank + 2 * half_size;
      MPI_Comm_free(&half);
    }
  });
  auto checksum = micro::check(total, rank, size, iters);
  bench::report("range_split", "mpi", size, seconds / iters, checksum);
  MPI_Finalize();
}
