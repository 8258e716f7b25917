// Misuse: one datatype, inferred from send_buf, would serve a recv_buf of another element type.
// expect-error: nampi: allreduce: 'recv_buf' holds another element type than 'send_buf', and one
// datatype ('send_type') serves both
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<double> v(4, 1.5);
  std::vector<float> w(4);
  comm.allreduce(send_buf(v), recv_buf(w), op(std::plus<>{}));
}
