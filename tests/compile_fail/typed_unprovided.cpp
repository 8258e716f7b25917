// A typed-layer function the configured MPI lacks (the MPI 5 ABI's mpi_abi.h has no Fortran
// converters; Open MPI 4.1 no MPI-4 functions) is one message naming the C function, not
// "no member named". This case takes MPI_Comm_c2f away, as such an MPI's nampi/config.h would.
// expect-error: nampi: mpi::comm_c2f: the MPI nampi was configured with does not provide MPI_Comm_c2f
#include <nampi/config.h>
#undef NAMPI_HAVE_MPI_COMM_C2F

#include <nampi/mpi.hpp>

int main() {
  // The result is not kept: mpi_abi.h has no MPI_Fint to keep it in.
  nampi::mpi::comm_c2f(nampi::mpi::comm(MPI_COMM_WORLD));
}
