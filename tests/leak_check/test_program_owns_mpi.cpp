// A program that initializes and finalizes MPI itself, without nampi::Environment: the
// datatype and the user op nampi creates for its calls must still be freed before
// MPI_Finalize (by the delete callback of nampi's attribute on MPI_COMM_SELF, which
// MPI_Finalize runs first). The whole-program leak check (support/leak_check.hpp) counts
// every constructor and free with the PMPI counter, after MPI_Finalize.
#include <mpi.h>

#include <cstdio>
#include <nampi/nampi.hpp>
#include <vector>

#include "leak_check.hpp"

using namespace nampi::params;

namespace {

struct sample {
  int id;
  double value;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    nampi::Communicator comm;
    // A struct datatype (created once, cached) and a user op (a lambda).
    const std::vector<sample> all = comm.allgather(send_buf(sample{rank, 0.5 * rank}));
    const int total = comm.allreduce_single(send_buf(rank), op([](int a, int b) { return a + b; }));
    bool ok = static_cast<int>(all.size()) == size && total == size * (size - 1) / 2;
    for (int r = 0; r < size; ++r) ok = ok && all[r].id == r && all[r].value == 0.5 * r;
    if (!ok) {
      std::fprintf(stderr, "rank %d: wrong data\n", rank);
      return 1;
    }
  }
  MPI_Finalize();
  if (!nampi_test::check_no_leaks(rank)) return 1;
  if (rank == 0) std::printf("nothing leaked\n");
  return 0;
}
