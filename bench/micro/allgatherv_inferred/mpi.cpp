#include <mpi.h>

#include "common.hpp"

// What one writes by hand: exchange the counts, scan them, allocate, gather.
std::vector<int> allgatherv(const std::vector<int>& local, int size, MPI_Comm comm) {
  int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<int> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(local.data(), count, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT,
                 comm);
  return all;
}

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
  std::vector<int> all;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      all = allgatherv(local, size, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(all, size, n);
  bench::report("allgatherv_inferred", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
