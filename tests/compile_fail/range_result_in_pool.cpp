// A range communicator's nonblocking result has no MPI request: a request pool cannot
// complete it, and says so in one message.
// expect-error: nampi: request_pool::add: a range communicator's nonblocking result has no MPI request
#include <nampi/nampi.hpp>
#include <utility>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0), last(comm.size() - 1));
  nampi::request_pool pool;
  auto pending = r.ibarrier();
  pool.add(std::move(pending));
}
