// Misuse of a plugin's call: a core parameter it does not take; the message names the
// parameter, the note the call, as for the core calls.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::reproducible_reduce, nampi::param_id::root>
#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::reproducible_reduce> comm;
  std::vector<double> v{1.0, 2.0};
  double sum = comm.reproducible_reduce(send_buf(v), op(std::plus<>{}), root(0));
  (void)sum;
}
