// A member of the ulfm plugin whose function this MPI lacks under either name (MPICH 5 has
// neither MPI_Comm_is_revoked nor MPIX_Comm_is_revoked) is one message where it is used; the
// other members still compile. This case takes the function away, as such an MPI's
// nampi/config.h would.
// expect-error: nampi: ulfm: is_revoked() needs MPI_Comm_is_revoked or MPIX_Comm_is_revoked, which this MPI lacks
#include <nampi/config.h>

#include <nampi/nampi.hpp>
#undef NAMPI_HAVE_MPIX_COMM_IS_REVOKED
#undef NAMPI_HAVE_MPI_COMM_IS_REVOKED
#include <nampi/plugins/ulfm.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
  comm.revoke();
  nampi::OwnedCommunicator survivors = comm.shrink();
  const bool revoked = comm.is_revoked();
  (void)revoked;
}
