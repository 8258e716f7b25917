// Misuse: send_buf given twice to allgatherv.
// expect-error: nampi::error::parameter_given_more_than_once<nampi::call::allgatherv, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(send_buf(v), send_buf(v));
}
