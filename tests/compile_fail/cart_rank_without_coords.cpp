// Misuse: cart_rank without coords (which position to look up is the caller's to say).
// expect-error: nampi: cart_rank: missing required parameter 'coords'
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  int found = comm.cart_rank(rank_out());
}
