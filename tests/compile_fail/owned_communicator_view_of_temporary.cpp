// Misuse: a Communicator view of the temporary a constructor returns (freed at once).
// expect-error: use of deleted function
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  nampi::Communicator ring = comm.cart_create(ndims(1));
}
