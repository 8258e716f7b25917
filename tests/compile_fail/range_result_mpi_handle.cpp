// mpi_handle() of a range communicator's nonblocking result: there is no MPI request to give
// (its wait() and test() drive the call), which is one message naming the member.
// expect-error: nampi: mpi_handle(): a range communicator's nonblocking call has no MPI request
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0), last(comm.size() - 1));
  auto pending = r.ibarrier();
  MPI_Wait(&pending.mpi_handle(), MPI_STATUS_IGNORE);
}
