// Misuse: dest passed to recv, which takes source.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::recv, nampi::param_id::dest>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  comm.recv<int>(source(0), dest(1));
}
