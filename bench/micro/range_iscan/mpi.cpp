#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const auto count = static_cast<std::size_t>(args.get_int("count", 1));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  std::vector<std::int64_t> mine(count), prefix(count);
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      micro::fill(mine, rank, i);
      MPI_Request request = MPI_REQUEST_NULL;
      MPI_Iscan(mine.data(), prefix.data(), static_cast<int>(count), MPI_INT64_T, MPI_SUM,
                MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      total += micro::check(prefix, rank, i);
    }
  });
  bench::report("range_iscan", "mpi", size, seconds / iters, total);
  MPI_Finalize();
}
