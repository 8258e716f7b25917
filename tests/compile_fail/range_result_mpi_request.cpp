// A range communicator's nonblocking call is driven by its result's wait() and test(): there
// is no MPI request to hand to MPI_Waitall.
// expect-error: nampi: mpi_request(): a range communicator's nonblocking call has no MPI request
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0), last(comm.size() - 1));
  auto pending = r.ibarrier();
  MPI_Request& request = pending.mpi_request();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}
