// Misuse: recv_count inferred as send_count, but recv_buf holds another element type.
// expect-error: nampi: allgather: 'recv_buf' holds another element type than 'send_buf', so
// 'recv_count' cannot be taken from 'send_count' (give recv_count)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

struct two_ints {
  int a, b;
};

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> in{1, 2};
  std::vector<two_ints> out(2);
  comm.allgather(send_buf(in), recv_buf(out));
}
