// Misuse of a plugin written outside nampi (tests/support/plugin_outside_nampi.hpp): a
// parameter its call does not take; the error line names the call's tag and the parameter.
// expect-error: nampi::error::call_does_not_take_parameter<greeting::greet_call, nampi::param_id::op>
#include <nampi/nampi.hpp>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;
using namespace greeting::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<greeting::plugin> comm;
  auto text = comm.greet(name("x"), op(std::plus<>{}));
}
