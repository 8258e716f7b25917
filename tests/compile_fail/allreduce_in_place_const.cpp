// In place, the buffer is also the receive buffer: a const container cannot be one.
// expect-error: nampi: allreduce (in place, with send_recv_buf): MPI writes into 'send_recv_buf', which must be writable
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> cv(4, 1);
  comm.allreduce(send_recv_buf(cv), op(std::plus<>{}));
}
