// Misuse: a Communicator view of the temporary owner the typed layer returns
// (it frees the communicator at the end of the statement; the view would dangle).
// expect-error: use of deleted function
#include <nampi/mpi/communicators.hpp>
#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator dup(nampi::mpi::comm_dup(nampi::mpi::comm(MPI_COMM_WORLD)));
}
