// Misuse: a range needs its last rank.
// expect-error: nampi::error::missing_required_parameter<nampi::call::range, nampi::param_id::last>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0));
}
