// Misuse: root passed to allgatherv, which has no root.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::allgatherv, nampi::param_id::root>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(send_buf(v), root(0));
}
