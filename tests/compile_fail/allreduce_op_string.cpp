// Misuse: a value that is neither an MPI_Op nor a callable.
// expect-error: nampi: op: expects an MPI_Op (MPI_SUM, ...), a builtin functor
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v), op("sum"));
}
