// Misuse: taking a nonblocking call's result as if it were the blocking call's value.
// expect-error: nampi: a nonblocking call returns a pending result, not its value: call wait()
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> mine(3, comm.rank());
  std::vector<int> all = comm.iallgatherv(send_buf(mine));
  return static_cast<int>(all.size());
}
