// Misuse: allgatherv without its required send_buf.
// expect-error: nampi::error::missing_required_parameter<nampi::call::allgatherv, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> out;
  comm.allgatherv(recv_buf(out));
}
