// Misuse: coords given as an input to cart_coords, which writes them (MPI would
// write into the caller's const vector): coords_out(v) asks them back into v.
// expect-error: nampi: cart_coords: 'coords' is an output; pass coords_out(x) or omit it (it is returned)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> where(2);
  comm.cart_coords(coords(where));
}
