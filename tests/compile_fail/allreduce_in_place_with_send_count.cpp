// Misuse: allreduce in place (send_recv_buf) also given a send_count, which in-place mode ignores.
// expect-error: nampi: in place (with send_recv_buf), this call ignores parameter 'send_count'
// expect-note: 'nampi::call::allreduce_in_place::takes<nampi::param_id::send_count>'
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
