// Misuse: pready() on a persistent call that is not partitioned: persistent_call
// has no partition operations.
// expect-error: has no member named 'pready'
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  int x = 0;
  auto send = comm.send_init(send_buf(x), dest(0));
  send.start();
  send.pready(0);
}
