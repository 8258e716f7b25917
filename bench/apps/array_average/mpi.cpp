#include <mpi.h>

#include "bench_util.hpp"
#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 50000000);
  const auto share = array_average::share_of(n, rank, size);
  std::vector<double> part(share.end - share.begin);

  double total = 0.0;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 5)), [&] {
    array_average::fill(part, share.begin);
    const double local = array_average::sum(part);
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  });

  bench::require(rank != 0 || total == array_average::expected_sum(n), "wrong sum");
  bench::report("array_average", "mpi", size, seconds, array_average::format(total / n));
  MPI_Finalize();
}
