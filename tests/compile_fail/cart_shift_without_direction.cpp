// Misuse: cart_shift without a direction (which dimension to shift along has no default).
// expect-error: nampi: cart_shift: missing required parameter 'direction'
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto neighbours = comm.cart_shift(disp(1));
}
