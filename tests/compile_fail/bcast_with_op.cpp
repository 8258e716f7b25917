// Misuse: op passed to bcast, which does not reduce.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::bcast, nampi::param_id::op>
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.bcast(send_recv_buf(v), op(std::plus<>{}));
}
