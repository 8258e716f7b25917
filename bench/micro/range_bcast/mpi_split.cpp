// range_bcast written with MPI_Comm_split, as most MPI programs make a half: every rank of the
// world takes part in the split, then the upper half broadcasts (the paper's Figure 7 compares
// against this). bench/scale/run.py runs it beside mpi.cpp (MPI_Comm_create_group).
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
      const bool upper = rank >= size / 2;
      MPI_Comm half = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, upper ? 1 : 0, rank, &half);
      if (upper) {
        int half_rank = 0;
        MPI_Comm_rank(half, &half_rank);
        if (half_rank == 0) micro::fill(data, i);
        MPI_Bcast(data.data(), static_cast<int>(bytes), MPI_UNSIGNED_CHAR, 0, half);
        total += micro::sample(data);
      }
      MPI_Comm_free(&half);
    }
  });
  if (rank >= size / 2) micro::check(total, iters, bytes);
  bench::report("range_bcast", "mpi_split", size, seconds / iters, bench::hex(bytes));
  MPI_Finalize();
}
