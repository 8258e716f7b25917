#include <mpi.h>

#include <numeric>

#include "bench_util.hpp"
#include "common.hpp"

std::vector<std::uint64_t> allgatherv(const std::vector<std::uint64_t>& local, int size) {
  const int count = static_cast<int>(local.size());
  std::vector<int> counts(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> displs(size);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<std::uint64_t> all(displs.back() + counts.back());
  MPI_Allgatherv(local.data(), count, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                 MPI_UINT64_T, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 200000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const auto local = vector_allgather::generate(seed, rank, size, n);

  std::vector<std::uint64_t> all;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 10)),
                                        [&] { all = allgatherv(local, size); });

  bench::require(vector_allgather::check(all, seed, size, n), "gathered vectors differ");
  bench::report("vector_allgather", "mpi", size, seconds, bench::hex(bench::fnv1a(all)));
  MPI_Finalize();
}
