// Misuse: allreduce in place (send_recv_buf) also given a send_count, which in-place mode ignores.
// expect-error: nampi::error::in_place_call_ignores_parameter<nampi::call::allreduce_in_place, nampi::param_id::send_count>
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_recv_buf(v), send_count(3), op(std::plus<>{}));
}
