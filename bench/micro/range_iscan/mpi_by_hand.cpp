// range_iscan's algorithm written by hand on plain MPI: the recursive doubling that nampi's
// range iscan runs (copy the own values, then in each round send the partial up by `distance`
// and combine the one from below on the left), with MPI_Isend, MPI_Irecv, MPI_Waitall and
// MPI_Reduce_local on a duplicate of the world (nampi's collectives send on a context of
// their own too). The twin that nampi's instructions outside MPI are held against (issue 36:
// at most 2x); mpi.cpp is MPI's own MPI_Iscan.
#include <mpi.h>

#include <cstring>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm own = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &own);
  bench::args args(argc, argv);
  const auto count = static_cast<std::size_t>(args.get_int("count", 1));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  std::vector<std::int64_t> mine(count), prefix(count), theirs(count);
  std::uint64_t total = 0;
  const int n = static_cast<int>(count);

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      micro::fill(mine, rank, i);
      std::memcpy(prefix.data(), mine.data(), count * sizeof(std::int64_t));
      for (int distance = 1; distance < size; distance *= 2) {
        MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        if (rank + distance < size)
          MPI_Isend(prefix.data(), n, MPI_INT64_T, rank + distance, 0, own, &requests[0]);
        const bool from_below = rank - distance >= 0;
        if (from_below)
          MPI_Irecv(theirs.data(), n, MPI_INT64_T, rank - distance, 0, own, &requests[1]);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        if (from_below) MPI_Reduce_local(theirs.data(), prefix.data(), n, MPI_INT64_T, MPI_SUM);
      }
      total += micro::check(prefix, rank, i);
    }
  });
  bench::report("range_iscan", "mpi_by_hand", size, seconds / iters, total);
  MPI_Comm_free(&own);
  MPI_Finalize();
}
