// Misuse: op given a lambda with captures (MPI calls user ops without state).
// clang-format off
// expect-error: nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), an MPI_Op, or a stateless callable taking two elements (a lambda without captures; wrap a function pointer in one)
// clang-format on
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  const int offset = 1;
  comm.allreduce(send_buf(v), op([offset](int a, int b) { return a + b + offset; }));
}
