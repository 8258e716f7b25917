// Misuse: dest passed to recv, which takes source.
// expect-error: nampi: this call does not take parameter 'dest'
// expect-note: 'nampi::call::recv::takes<nampi::param_id::dest>'
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  comm.recv<int>(source(0), dest(1));
}
