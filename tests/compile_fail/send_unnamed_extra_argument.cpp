// Misuse: a plain int (meant as the tag) passed to send next to its named parameters.
// expect-error: nampi::error::argument_is_not_a_named_parameter<nampi::call::send, 3, int>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), dest(0), 7);
}
