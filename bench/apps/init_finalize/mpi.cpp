#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  const auto init_start = init_finalize::clock::now();
  MPI_Init(&argc, &argv);
  const double mine = init_finalize::seconds_between(init_start, init_finalize::clock::now());
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double init = 0.0;
  MPI_Reduce(&mine, &init, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  const auto finalize_start = init_finalize::clock::now();
  MPI_Finalize();
  const auto finalize_end = init_finalize::clock::now();

  if (rank == 0)
    init_finalize::report("mpi", size, init,
                          init_finalize::seconds_between(finalize_start, finalize_end));
}
