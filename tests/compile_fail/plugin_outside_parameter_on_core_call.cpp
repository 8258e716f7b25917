// A parameter of a plugin written outside nampi given to one of nampi's calls: the message
// line names the call and the parameter's id.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::allreduce, greeting::ids::name>
#include <nampi/nampi.hpp>
#include <vector>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;
using namespace greeting::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<greeting::plugin> comm;
  std::vector<int> v{1};
  auto sum = comm.allreduce(send_buf(v), op(std::plus<>{}), name("x"));
}
