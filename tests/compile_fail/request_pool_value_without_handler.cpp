// Misuse: a call whose value would be lost (the received data) added to a pool
// without a handler.
// expect-error: nampi: request_pool::add: this call returns a value
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  nampi::request_pool pool;
  pool.add(comm.irecv<int>(source(0), recv_count(3)));
}
