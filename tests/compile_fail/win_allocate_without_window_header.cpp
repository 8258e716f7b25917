// Misuse: creating a window without its (opt-in) header: nampi/nampi.hpp leaves it out, as
// most programs use no windows and its calls cost compile time. (Without the test PCH, which
// includes every header: a compile-flags line turns it off.)
// compile-flags: -Wall
// expect-error: nampi: win_allocate: #include <nampi/window.hpp> (it defines what the call returns)
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(2));
}
