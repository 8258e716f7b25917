// The ulfm plugin where the MPI declares ULFM's functions but they do not work (MPICH 5's ch4
// device aborts in MPIX_Comm_agree): the configure-time run check failed, and naming the
// plugin is one message that says so; the calls on it add none. This case sets what such an
// MPI's nampi/config.h says, wherever it runs.
// expect-error: nampi: the ulfm plugin needs an MPI whose ULFM works; this one declares shrink, revoke and agree, but they failed nampi's configure-time run check
#include <nampi/config.h>

#include <nampi/nampi.hpp>
#undef NAMPI_HAVE_ULFM
#undef NAMPI_ULFM_FAILED_RUN_CHECK
#define NAMPI_ULFM_FAILED_RUN_CHECK 1
#include <nampi/plugins/ulfm.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
  comm.revoke();
  nampi::OwnedCommunicator survivors = comm.shrink();
  const bool all = comm.agree(true);
  (void)all;
}
