// Misuse: create_group without the group of the new communicator.
// expect-error: nampi::error::missing_required_parameter<nampi::call::create_group, nampi::param_id::group>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto made = comm.create_group(tag(1));
}
