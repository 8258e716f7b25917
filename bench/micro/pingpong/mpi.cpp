#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int bytes = static_cast<int>(args.get_int("bytes", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  bench::require(size >= 2, "pingpong needs at least 2 ranks");
  auto message = micro::make_message(bytes, rank);

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      if (rank == 0) {
        MPI_Send(message.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(message.data(), bytes, MPI_BYTE, 1, MPI_ANY_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(message.data(), bytes, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(message.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
  });
  auto checksum = micro::check(message, rank);
  bench::report("pingpong", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
