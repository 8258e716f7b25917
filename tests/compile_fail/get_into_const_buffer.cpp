// Misuse: get into a const buffer; MPI writes origin_buf.
// expect-error: nampi: get: MPI writes 'origin_buf' after the call returns: give a non-const variable, not a temporary
#include <nampi/nampi.hpp>
#include <nampi/window.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(2));
  auto epoch = win.fence_epoch();
  const std::vector<int> into(2);
  win.get(origin_buf(into), target_rank(0));
}
