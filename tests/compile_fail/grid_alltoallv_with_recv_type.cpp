// Misuse of the grid communicator's alltoallv: a core parameter it does not take (its elements
// travel with their own datatype); the message names the parameter, the note the call.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::grid_alltoallv, nampi::param_id::recv_type>
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
  auto recv = grid.alltoallv(send_buf(v), send_counts(c), recv_type(MPI_INT));
  (void)recv;
}
