// Misuse: a datatype where a communicator is expected (under MPICH both are int in C).
// expect-error: handle<nampi::mpi::datatype_kind>'}) to type 'nampi::mpi::comm' {aka 'nampi::mpi::handle<nampi::mpi::comm_kind>'}
#include <nampi/mpi/communicators.hpp>

int main() {
  const nampi::mpi::datatype type(MPI_INT);
  return nampi::mpi::comm_size(type);
}
