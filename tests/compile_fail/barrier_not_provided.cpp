// A call whose MPI function the installed MPI lacks: one message that says so.
// The probe result is removed by hand here, as if MPI_Barrier were missing (all
// four MPIs of the matrix have it; MPI-4 calls on Open MPI 4.1 are the real case).
// expect-error: nampi: barrier: the installed MPI does not provide MPI_Barrier
#include <nampi/config.h>
#undef NAMPI_HAVE_MPI_BARRIER

#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  comm.barrier();
}
