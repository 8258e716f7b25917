// Misuse: a window over a temporary; other ranks would write into memory that died at the end
// of the statement.
// expect-error: nampi: win_create: MPI exposes 'base' to other ranks after the call returns: give a non-const variable, not a temporary
#include <nampi/nampi.hpp>
#include <nampi/window.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_create(base(std::vector<int>(4)));
}
