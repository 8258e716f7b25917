// A const receive buffer: MPI would write into the caller's const vector (before: 14 lines from slot.hpp).
// expect-error: nampi: recv: MPI writes into 'recv_buf', which must be writable: give a non-const buffer
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> v(4);
  comm.recv(recv_buf(v), source(0));
}
