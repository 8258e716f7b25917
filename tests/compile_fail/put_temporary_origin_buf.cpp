// Misuse: a blocking put of a temporary. MPI may read origin_buf until the epoch's
// synchronization, after the temporary died at the end of the statement.
// expect-error: nampi: put: MPI reads 'origin_buf' after the call returns: give a variable, not a temporary
#include <nampi/nampi.hpp>
#include <nampi/window.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(2));
  auto epoch = win.fence_epoch();
  win.put(origin_buf(std::vector<int>{1, 2}), target_rank(0));
}
