// Misuse: send without its required dest.
// expect-error: nampi: send: missing required parameter 'dest'
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), tag(7));
}
