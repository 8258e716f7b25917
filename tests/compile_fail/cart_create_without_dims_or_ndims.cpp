// Misuse: cart_create with neither dims nor ndims (each is computed from the other).
// expect-error: nampi: cart_create: give 'ndims' or 'dims' (each is computed from the other)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> periodic{1, 1};
  auto grid = comm.cart_create(periods(periodic));
}
