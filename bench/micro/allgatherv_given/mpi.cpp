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
  auto local = micro::make_local(rank, n);
  auto counts = micro::make_counts(size, n);
  auto displs = micro::make_displs(counts);
  std::vector<int> all(static_cast<std::size_t>(displs.back() + counts.back()));

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      MPI_Allgatherv(local.data(), static_cast<int>(local.size()), MPI_INT, all.data(),
                     counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(all, size, n);
  bench::report("allgatherv_given", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
