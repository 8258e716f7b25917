// Misuse: a _single call passes send_type for both buffers; recv_buf holds doubles, send_buf an
// int. expect-error: nampi: allgather_single: 'recv_buf' holds another element type than
// 'send_buf', and one datatype ('send_type') serves both
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<double> all(4);
  comm.allgather_single(send_buf(comm.rank()), recv_buf(all));
}
