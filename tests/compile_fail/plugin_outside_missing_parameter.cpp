// A plugin written outside nampi (tests/support/plugin_outside_nampi.hpp) checks its own
// required parameter: its message alone.
// expect-error: greet: give name(text)
#include <nampi/nampi.hpp>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<greeting::plugin> comm;
  auto text = comm.greet(root(0));
}
