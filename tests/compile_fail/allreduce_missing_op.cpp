// Misuse: allreduce without its required op.
// expect-error: nampi: allreduce: missing required parameter 'op'
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v));
}
