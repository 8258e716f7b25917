// Misuse of the grid communicator's alltoallv (spec/plugins/grid_alltoall.yaml): its required
// send_counts omitted; the message names the member and whose it is.
// expect-error: nampi::error::missing_required_parameter<nampi::call::grid_alltoallv, nampi::param_id::send_counts>
#include <nampi/nampi.hpp>
#include <nampi/plugins/grid_alltoall.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::grid_alltoall> comm;
  auto grid = comm.make_grid_communicator();
  std::vector<int> v{1, 2, 3};
  auto recv = grid.alltoallv(send_buf(v));
  (void)recv;
}
