// Misuse: op given a callable that cannot combine two elements of the buffer.
// clang-format off
// expect-error: nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), an MPI_Op, or a stateless callable taking two elements (a lambda without captures; wrap a function pointer in one)
// clang-format on
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v), op([](const std::string& a, const std::string&) { return a; }));
}
