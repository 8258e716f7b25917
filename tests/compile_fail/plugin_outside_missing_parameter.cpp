// A plugin written outside nampi (tests/support/plugin_outside_nampi.hpp) declares its
// required parameter (its tag's `required`): missing, it is one error naming call and parameter.
// expect-error: nampi::error::missing_required_parameter<greeting::greet_call, greeting::ids::name>
#include <nampi/nampi.hpp>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<greeting::plugin> comm;
  auto text = comm.greet(root(0));
}
