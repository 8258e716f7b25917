// Built by the install/consumer test against an installed nampi.
#include <mpi.h>

#include <cstdio>
#include <nampi/config.hpp>

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::printf("nampi consumer: rank %d, C++ %ld\n", rank, static_cast<long>(__cplusplus));
  MPI_Finalize();
  return (rank == 0 && __cplusplus >= 202002L) ? 0 : 1;
}
