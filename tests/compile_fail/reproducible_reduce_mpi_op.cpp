// Misuse of a plugin's call: reproducible_reduce applies its op in its own tree, so an MPI_Op
// (which only MPI can apply) is one message naming the call and the parameter.
// clang-format off
// expect-error: nampi: reproducible_reduce: parameter 'op': takes a callable or a builtin functor (std::plus<>, ...), not an MPI_Op
// clang-format on
#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::reproducible_reduce> comm;
  std::vector<double> v{1.0, 2.0};
  double sum = comm.reproducible_reduce(send_buf(v), op(MPI_SUM));
  (void)sum;
}
