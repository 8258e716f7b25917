// A const receive buffer: MPI would write into the caller's const vector (before: 14 lines from slot.hpp).
// expect-error: nampi: MPI writes into 'recv_buf', which must be writable: give a non-const buffer
// expect-note: nampi::error::buffer_is_const<nampi::call::recv, nampi::param_id::recv_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> v(4);
  comm.recv(recv_buf(v), source(0));
}
