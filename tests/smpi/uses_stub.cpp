// Compiled by the test smpi/stub_is_a_compile_error, which expects it to fail: SMPI links
// MPI_Improbe but does not implement it, so the probe leaves NAMPI_HAVE_MPI_IMPROBE out and
// nampi's improbe says so at compile time (instead of the simulation stopping in it).
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto found = comm.improbe(source(0), tag(0));
  (void)found;
  return 0;
}
