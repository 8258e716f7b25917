// Misuse: send_counts_out() asked of alltoallv, where send_counts is a required input.
// expect-error: nampi: alltoallv: 'send_counts' is an input; send_counts_out() cannot return it
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.alltoallv(send_buf(v), send_counts_out());
}
