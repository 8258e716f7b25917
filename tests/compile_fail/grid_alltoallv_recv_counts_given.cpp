// Misuse of the grid communicator's alltoallv: recv_counts given (the core takes them to skip
// the count exchange; the grid's counts travel with the data, so it only hands them back).
// expect-error: nampi: alltoallv (grid communicator): recv_counts can only be asked back
#include <nampi/nampi.hpp>
#include <nampi/plugins/grid_alltoall.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::grid_alltoall> comm;
  auto grid = comm.make_grid_communicator();
  std::vector<int> v(static_cast<std::size_t>(comm.size()), 1);
  std::vector<int> c(static_cast<std::size_t>(comm.size()), 1);
  auto recv = grid.alltoallv(send_buf(v), send_counts(c), recv_counts(c));
  (void)recv;
}
