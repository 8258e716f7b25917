// Misuse: split without a color (which ranks go together is the caller's to say).
// expect-error: nampi::error::missing_required_parameter<nampi::call::split, nampi::param_id::color>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto half = comm.split(key(comm.rank()));
}
