// Misuse: reading a persistent call's data other than through wait() or value().
// expect-error: nampi: a persistent call's data is reachable only through wait() or value()
#include <functional>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  int mine = comm.rank();
  auto sum = comm.allreduce_single_init(send_buf(mine), op(std::plus<>{}));
  sum.start();
  sum.get<0>();
  return 0;
}
