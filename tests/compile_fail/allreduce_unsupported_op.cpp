// Misuse: op given a functor with no builtin MPI_Op (std::minus).
// clang-format off
// expect-error: nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, std::logical_and<>, std::logical_or<>, std::bit_and<>, std::bit_or<>, std::bit_xor<>, nampi::ops::max<>, nampi::ops::min<>, nampi::ops::logical_xor<>) or an MPI_Op
// clang-format on
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v), op(std::minus<>{}));
}
