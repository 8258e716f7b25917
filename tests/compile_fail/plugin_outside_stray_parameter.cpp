// Misuse of a plugin written outside nampi (tests/support/plugin_outside_nampi.hpp): a
// parameter its call does not take; the message names the parameter, the note the call.
// expect-error: nampi: this call does not take parameter 'op'
// expect-note: greet_call
#include <nampi/nampi.hpp>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;
using namespace greeting::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<greeting::plugin> comm;
  auto text = comm.greet(name("x"), op(std::plus<>{}));
}
