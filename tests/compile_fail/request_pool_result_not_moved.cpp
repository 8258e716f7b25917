// Misuse: a result added to a pool as an lvalue (the pool must own it).
// expect-error: nampi: request_pool::add: move the result in (std::move)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  nampi::request_pool pool;
  auto r = comm.isend(send_buf(v), dest(0));
  pool.add(r);
}
