// The same exchanges written with waits: each round posts every task's receive and send, then
// waits for them task by task (MPI_Wait), as code that calls wait() on each result does.
#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int tasks = static_cast<int>(args.get_int("tasks", 8));
  const auto count = static_cast<std::size_t>(args.get_int("count", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<std::vector<int>> out(static_cast<std::size_t>(tasks), std::vector<int>(count));
  std::vector<std::vector<int>> in(static_cast<std::size_t>(tasks), std::vector<int>(count));
  std::vector<MPI_Request> requests(2 * out.size(), MPI_REQUEST_NULL);
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int r = 0; r < iters; ++r) {
      for (int t = 0; t < tasks; ++t) {
        const auto i = static_cast<std::size_t>(t);
        micro::fill(out[i], rank, t, r);
        MPI_Irecv(in[i].data(), static_cast<int>(count), MPI_INT, left, t, MPI_COMM_WORLD,
                  &requests[2 * i]);
        MPI_Isend(out[i].data(), static_cast<int>(count), MPI_INT, right, t, MPI_COMM_WORLD,
                  &requests[2 * i + 1]);
      }
      for (int t = 0; t < tasks; ++t) {
        const auto i = static_cast<std::size_t>(t);
        MPI_Wait(&requests[2 * i + 1], MPI_STATUS_IGNORE);
        MPI_Wait(&requests[2 * i], MPI_STATUS_IGNORE);
        total += micro::sample(in[i]);
      }
    }
  });
  bench::require(total == micro::expected(left, tasks, iters, count),
                 "tasks: wrong values received");
  bench::report("tasks", "mpi_wait", size, seconds / (static_cast<double>(tasks) * iters), total);
  MPI_Finalize();
}
