// Misuse: send without its required dest.
// expect-error: nampi::error::missing_required_parameter<nampi::call::send, nampi::param_id::dest>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), tag(7));
}
