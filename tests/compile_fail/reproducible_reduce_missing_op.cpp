// Misuse of a plugin's call: its required parameter omitted (spec/plugins/reproducible_reduce.yaml).
// expect-error: nampi::error::missing_required_parameter<nampi::call::reproducible_reduce, nampi::param_id::op>
#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::reproducible_reduce> comm;
  std::vector<double> v{1.0, 2.0};
  double sum = comm.reproducible_reduce(send_buf(v));
  (void)sum;
}
