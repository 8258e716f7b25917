// Misuse: send_counts_out() asked of scatterv, where send_counts is an input.
// expect-error: nampi: scatterv: 'send_counts' is an input; send_counts_out() cannot return it
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.scatterv(send_buf(v), root(0), send_counts_out());
}
