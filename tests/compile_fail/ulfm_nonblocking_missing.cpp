// ishrink() where the MPI has neither MPI_Comm_ishrink nor MPIX_Comm_ishrink (Open MPI 5.0
// has MPIX_Comm_iagree only) is one message where it is used; iagree and the blocking members
// still compile. This case takes ishrink away, as such an MPI's nampi/config.h would.
// expect-error: nampi: ulfm: ishrink() needs MPI_Comm_ishrink or MPIX_Comm_ishrink, which this MPI lacks
#include <nampi/config.h>

#include <nampi/nampi.hpp>
#undef NAMPI_HAVE_MPI_COMM_ISHRINK
#undef NAMPI_HAVE_MPIX_COMM_ISHRINK
#include <nampi/plugins/ulfm.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
  nampi::OwnedCommunicator survivors = comm.shrink();
  auto shrinking = comm.ishrink();
  nampi::OwnedCommunicator started = shrinking.wait();
}
