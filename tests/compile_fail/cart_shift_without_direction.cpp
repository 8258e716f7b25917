// Misuse: cart_shift without a direction (which dimension to shift along has no default).
// expect-error: nampi::error::missing_required_parameter<nampi::call::cart_shift, nampi::param_id::direction>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto neighbours = comm.cart_shift(disp(1));
}
