// The ulfm plugin on an MPI without ULFM (Open MPI 4.1, the MPI 5 ABI's mpi_abi.h) is one
// message, and the calls on it add none. This case takes ULFM away wherever it runs: without
// NAMPI_HAVE_ULFM and NAMPI_ULFM_FAILED_RUN_CHECK (nampi/config.h, already included),
// nampi/plugins/ulfm.hpp is what an MPI without the ULFM functions sees.
// expect-error: nampi: the ulfm plugin needs an MPI with ULFM (MPI_Comm_shrink or MPIX_Comm_shrink); this one lacks it
#include <nampi/config.h>

#include <nampi/nampi.hpp>
#undef NAMPI_HAVE_ULFM
#undef NAMPI_ULFM_FAILED_RUN_CHECK
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
    nampi::OwnedCommunicator started = comm.ishrink().wait();
    const bool all = comm.agree(revoked) && comm.iagree(true).wait();
    comm.failure_ack();
    auto acked = comm.failure_get_acked();
    (void)all;
    (void)acked;
  }
}
