// Misuse: exscan in place given values_on_rank_0 (rank 0's buffer is the call's input until it
// completes; only the op's identity is set then).
// expect-error: nampi: exscan (in place): values_on_rank_0 cannot be given in place
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.exscan(send_recv_buf(v), op(std::plus<>{}), values_on_rank_0(0));
}
