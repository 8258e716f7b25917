// range_split written with MPI_Comm_create_group: each half makes its communicator from a
// group of its own ranks, and only its ranks take part (mpi.cpp: MPI_Comm_split, which the
// whole world calls). bench/scale/run.py runs the three side by side.
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
      const bool lower = micro::half_of(rank, size) == 0;
      int range[1][3] = {{lower ? 0 : size / 2, lower ? size / 2 - 1 : size - 1, 1}};
      MPI_Group world_group = MPI_GROUP_NULL;
      MPI_Group half_group = MPI_GROUP_NULL;
      MPI_Comm_group(MPI_COMM_WORLD, &world_group);
      MPI_Group_range_incl(world_group, 1, range, &half_group);
      MPI_Comm half = MPI_COMM_NULL;
      MPI_Comm_create_group(MPI_COMM_WORLD, half_group, 0, &half);
      int half_rank = 0;
      int half_size = 0;
      MPI_Comm_rank(half, &half_rank);
      MPI_Comm_size(half, &half_size);
      total += half_rank + 2 * half_size;
      MPI_Comm_free(&half);
      MPI_Group_free(&half_group);
      MPI_Group_free(&world_group);
    }
  });
  auto checksum = micro::check(total, rank, size, iters);
  bench::report("range_split", "mpi_create_group", size, seconds / iters, checksum);
  MPI_Finalize();
}
