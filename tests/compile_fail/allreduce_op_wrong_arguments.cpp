// Misuse: op given a callable that cannot combine two elements of the buffer.
// clang-format off
// expect-error: nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), an MPI_Op, or a callable that combines two elements into one (a lambda, function object, function pointer or std::function)
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
