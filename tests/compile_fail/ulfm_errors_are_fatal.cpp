// The ulfm plugin needs errors returned: with NAMPI_ERRORS_ARE_FATAL a failure aborts the job.
// compile-flags: -DNAMPI_ERRORS_ARE_FATAL=1
// expect-error: nampi: the ulfm plugin needs MPI errors returned
#include <nampi/nampi.hpp>
#include <nampi/plugins/ulfm.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
  comm.revoke();
}
