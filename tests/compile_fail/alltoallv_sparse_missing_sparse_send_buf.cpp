// Misuse of a plugin's call: its required parameter, declared by the plugin itself
// (spec/plugins/sparse_alltoall.yaml), omitted.
// expect-error: nampi::error::missing_required_parameter<nampi::call::alltoallv_sparse, nampi::plugins::sparse_alltoall_params::sparse_send_buf>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::sparse_alltoall> comm;
  comm.alltoallv_sparse(on_message([](auto&) {}));
}
