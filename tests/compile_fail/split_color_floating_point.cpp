// Misuse: a floating-point color (0.5 would silently become 0).
// expect-error: nampi: color: expects an integer, got a floating-point value
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto half = comm.split(color(comm.rank() / 2.0));
}
