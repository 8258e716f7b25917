// Misuse: intercomm_merge without high (with no default, the order of the merged
// groups is always the caller's choice, never one MPI makes up).
// expect-error: nampi::error::missing_required_parameter<nampi::call::intercomm_merge, nampi::param_id::high>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto merged = comm.intercomm_merge();
}
