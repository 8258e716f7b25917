// Misuse: reading a persistent call's data other than through wait() or value().
// (A point-to-point persistent call: every MPI of the matrix has MPI_Send_init.)
// expect-error: nampi: a persistent call's data is reachable only through wait() or value()
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> out(4, comm.rank());
  auto send = comm.send_init(send_buf(std::move(out)), dest(0));
  send.get<0>();
  return 0;
}
