// Misuse: alltoallv without its required send_counts.
// expect-error: nampi::error::missing_required_parameter<nampi::call::alltoallv, nampi::param_id::send_counts>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.alltoallv(send_buf(v));
}
