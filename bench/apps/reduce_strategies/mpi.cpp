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
  const auto n = static_cast<std::size_t>(args.get_int("n", 3000000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const bool is_root = rank == 0;
  const auto local = reduce_strategies::local_data(n, rank);
  std::vector<double> gathered(is_root ? n * size : 0);
  std::vector<double> result(is_root ? n : 0);
  std::vector<double> acc(n);
  std::vector<double> partner(n);

  const double gather = bench::measure(reps, [&] {
    MPI_Gather(local.data(), static_cast<int>(n), MPI_DOUBLE, gathered.data(), static_cast<int>(n),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (is_root) reduce_strategies::sum_blocks(gathered, result);
  });
  bench::require(reduce_strategies::check_and_clear(result, size), "gather: wrong sum");

  const double tree = bench::measure(reps, [&] {
    acc = local;
    for (int mask = 1; mask < size; mask <<= 1) {
      if (rank & mask) {
        MPI_Send(acc.data(), static_cast<int>(n), MPI_DOUBLE, rank - mask, 0, MPI_COMM_WORLD);
        break;
      }
      if (rank + mask < size) {
        MPI_Recv(partner.data(), static_cast<int>(n), MPI_DOUBLE, rank + mask, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        reduce_strategies::add(acc, partner);
      }
    }
  });
  if (is_root) acc.swap(result);
  bench::require(reduce_strategies::check_and_clear(result, size), "tree: wrong sum");

  const double reduce = bench::measure(reps, [&] {
    MPI_Reduce(local.data(), result.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, 0,
               MPI_COMM_WORLD);
  });
  const auto hash = bench::fnv1a(result);
  bench::require(reduce_strategies::check_and_clear(result, size), "reduce: wrong sum");

  if (is_root) reduce_strategies::report("mpi", size, gather, tree, reduce, hash);
  MPI_Finalize();
}
