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
  const int min_log = static_cast<int>(args.get_int("min_log", 10));
  const int max_log = static_cast<int>(args.get_int("max_log", 28));
  const int reps = static_cast<int>(args.get_int("reps", 20));
  const bool is_root = rank == 0;

  bcast_scaling::times given;
  bcast_scaling::times inferred;
  std::uint64_t hash = 0;
  for (int log = min_log; log <= max_log; ++log) {
    auto buf = bcast_scaling::payload(log, is_root);
    const int count = static_cast<int>(buf.size());
    given.add(log, bench::measure(bcast_scaling::reps_for(log, reps), [&] {
                MPI_Bcast(buf.data(), count, MPI_BYTE, 0, MPI_COMM_WORLD);
              }));
    if (log == max_log) hash = bench::fnv1a(buf);
    bench::require(bcast_scaling::check_and_clear(buf, log, is_root), "broadcast data differ");
    inferred.add(log, bench::measure(bcast_scaling::reps_for(log, reps), [&] {
                   int received = static_cast<int>(buf.size());
                   MPI_Bcast(&received, 1, MPI_INT, 0, MPI_COMM_WORLD);
                   buf.resize(received);
                   MPI_Bcast(buf.data(), received, MPI_BYTE, 0, MPI_COMM_WORLD);
                 }));
    bench::require(bcast_scaling::check_and_clear(buf, log, is_root), "broadcast data differ");
  }

  MPI_Bcast(&hash, 1, MPI_UINT64_T, size - 1, MPI_COMM_WORLD);
  if (is_root) bcast_scaling::report("mpi", size, given, inferred, hash);
  MPI_Finalize();
}
