// In place, the buffer is also the receive buffer: a const container cannot be one.
// expect-error: nampi: MPI writes into 'send_recv_buf', which must be writable
// expect-note: nampi::error::buffer_is_const<nampi::call::allreduce_in_place, nampi::param_id::send_recv_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> cv(4, 1);
  comm.allreduce(send_recv_buf(cv), op(std::plus<>{}));
}
