// Misuse: dup takes no color (a duplicate has the same group; split makes another).
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::dup, nampi::param_id::color>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto twin = comm.dup(color(0));
}
