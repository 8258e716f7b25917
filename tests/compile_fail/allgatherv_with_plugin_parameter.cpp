// A plugin's parameter given to a core call: the message names the parameter (the plugin's
// generated diagnostic), the note the call.
// expect-error: nampi::error::call_does_not_take_parameter<nampi::call::allgatherv, nampi::plugins::sparse_alltoall_params::on_message>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::sparse_alltoall> comm;
  std::vector<int> v{1};
  auto all = comm.allgatherv(send_buf(v), on_message([](auto&) {}));
}
