// The ulfm plugin on an MPI without ULFM is one message, and the calls on it add none. Every
// MPI this suite runs on has the ULFM functions, so this case takes them away: without
// NAMPI_HAVE_ULFM (nampi/config.h, already included), nampi/plugins/ulfm.hpp is what an MPI
// without ULFM sees.
// expect-error: nampi: the ulfm plugin needs an MPI with ULFM (MPIX_Comm_shrink); this one lacks it
#include <nampi/config.h>

#include <nampi/nampi.hpp>
#undef NAMPI_HAVE_ULFM
#include <nampi/plugins/ulfm.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
  try {
    comm.barrier();
  } catch (const nampi::process_failed&) {  // declared on every MPI
    comm.revoke();
    const bool revoked = comm.is_revoked();
    nampi::OwnedCommunicator survivors = comm.shrink();
    const bool all = comm.agree(revoked);
    comm.failure_ack();
    auto acked = comm.failure_get_acked();
    (void)all;
    (void)acked;
  }
}
