// Misuse: reading a nonblocking receive's data before it completed.
// expect-error: nampi: a nonblocking call's data is reachable only through wait() or test()
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto pending = comm.irecv<int>(source(0), recv_count(4));
  pending.get<0>();  // as a structured binding would
  return 0;
}
