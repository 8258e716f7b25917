// Misuse: a lock epoch names no target.
// expect-error: nampi::error::missing_required_parameter<nampi::call::lock, nampi::param_id::target_rank>
#include <nampi/nampi.hpp>
#include <nampi/window.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(2));
  auto epoch = win.lock_epoch(lock_type(MPI_LOCK_SHARED));
}
