// Misuse: a handler that cannot take the call's value (irecv<int> gives a std::vector<int>).
// expect-error: nampi: request_pool::add: the handler cannot take this call's value
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  nampi::request_pool pool;
  pool.add(comm.irecv<int>(source(0), recv_count(3)), [](double) {});
}
