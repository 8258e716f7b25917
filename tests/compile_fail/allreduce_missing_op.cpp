// Misuse: allreduce without its required op.
// expect-error: nampi::error::missing_required_parameter<nampi::call::allreduce, nampi::param_id::op>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v));
}
