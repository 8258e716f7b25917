// Misuse: a lambda with a capture given to nampi::mpi::op_create (MPI's user function has no
// user-data pointer, so only a capture-free callable can become an MPI_Op).
// expect-error: nampi::mpi::op_create: parameter 'user_fn' must be a capture-free callable
#include <nampi/mpi/collectives.hpp>

int main() {
  int factor = 2;
  auto op = nampi::mpi::op_create(
      [factor](const void*, void* inout, int len, nampi::mpi::datatype) {
        for (int i = 0; i < len; ++i) static_cast<int*>(inout)[i] *= factor;
      },
      true);
  (void)op;
}
