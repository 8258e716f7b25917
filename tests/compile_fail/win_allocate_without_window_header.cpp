// Misuse: creating a window where only nampi/communicator.hpp is included, not
// nampi/window.hpp (nampi/nampi.hpp includes both). Without the test PCH, which includes every
// header: a compile-flags line turns it off.
// compile-flags: -Wall
// expect-error: nampi: win_allocate: #include <nampi/window.hpp> (it defines what the call returns)
#include <nampi/communicator.hpp>
#include <nampi/environment.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(2));
}
