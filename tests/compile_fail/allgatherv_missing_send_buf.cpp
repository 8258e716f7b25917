// Misuse: allgatherv without its required send_buf.
// expect-error: nampi: allgatherv: missing required parameter 'send_buf'
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> out;
  comm.allgatherv(recv_buf(out));
}
