// Misuse: op given a function pointer (MPI calls user ops without state, so
// nampi cannot call through a pointer value; wrap the function in a lambda).
// clang-format off
// expect-error: nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), an MPI_Op, or a stateless callable taking two elements (a lambda without captures; wrap a function pointer in one)
// clang-format on
#include <nampi/nampi.hpp>

using namespace nampi::params;

int add(int a, int b) { return a + b; }

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  comm.allreduce_single(send_buf(comm.rank()), op(&add));
}
