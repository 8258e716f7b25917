// Misuse: cart_rank without coords (which position to look up is the caller's to say).
// expect-error: nampi::error::missing_required_parameter<nampi::call::cart_rank, nampi::param_id::coords>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  int found = comm.cart_rank(rank_out());
}
