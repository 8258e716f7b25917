// Misuse: a plain vector passed to allgatherv instead of send_buf(v).
// expect-error: nampi::error::argument_is_not_a_named_parameter<nampi::call::allgatherv, 1, std::vector<int
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(v);
}
