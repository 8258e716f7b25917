// Misuse: an int literal is not an MPI_Op. Under Open MPI (MPI_Op is a pointer) the op
// factory's static_assert says so; under MPICH (MPI_Op is an int, as is MPI_SUM) the value
// is checked at compile time and the compiler shows the line of ops.hpp that says so.
// expect-error: nampi: op: an integer is not an MPI_Op
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v), op(42));
}
