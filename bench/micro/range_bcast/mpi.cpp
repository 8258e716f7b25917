#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const auto bytes = static_cast<std::size_t>(args.get_int("bytes", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  std::vector<unsigned char> data(bytes);
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      // The fastest MPI way to a communicator of the half: create_group, only the half takes part.
      const bool upper = rank >= size / 2;
      if (!upper) continue;
      MPI_Group world_group = MPI_GROUP_NULL;
      MPI_Group half_group = MPI_GROUP_NULL;
      MPI_Comm_group(MPI_COMM_WORLD, &world_group);
      int range[1][3] = {{size / 2, size - 1, 1}};
      MPI_Group_range_incl(world_group, 1, range, &half_group);
      MPI_Comm half = MPI_COMM_NULL;
      MPI_Comm_create_group(MPI_COMM_WORLD, half_group, 0, &half);
      int half_rank = 0;
      MPI_Comm_rank(half, &half_rank);
      if (half_rank == 0) micro::fill(data, i);
      MPI_Bcast(data.data(), static_cast<int>(bytes), MPI_UNSIGNED_CHAR, 0, half);
      total += micro::sample(data);
      MPI_Comm_free(&half);
      MPI_Group_free(&half_group);
      MPI_Group_free(&world_group);
    }
  });
  if (rank >= size / 2) micro::check(total, iters, bytes);
  bench::report("range_bcast", "mpi", size, seconds / iters, bench::hex(bytes));
  MPI_Finalize();
}
