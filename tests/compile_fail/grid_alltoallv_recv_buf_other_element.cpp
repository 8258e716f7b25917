// Misuse of the grid communicator's alltoallv: a recv_buf of another element type (the grid
// moves the received elements into it, so they must be send_buf's).
// expect-error: nampi: alltoallv (grid communicator): recv_buf must hold send_buf's element type
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
  std::vector<long> out;
  grid.alltoallv(send_buf(v), send_counts(c), recv_buf<nampi::resize_to_fit>(out));
}
