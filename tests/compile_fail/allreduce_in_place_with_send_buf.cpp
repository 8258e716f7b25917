// Misuse: allreduce in place (send_recv_buf) also given a send_buf, which in-place mode ignores.
// expect-error: nampi: in place (with send_recv_buf), this call ignores parameter 'send_buf'
// expect-note: 'nampi::call::allreduce_in_place::takes<nampi::param_id::send_buf>'
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  std::vector<int> w{4, 5, 6};
  comm.allreduce(send_recv_buf(v), send_buf(w), op(std::plus<>{}));
}
