// std::vector<bool> is packed bits, not a buffer of bools: the message points to nampi::bool_value.
// expect-error: nampi: allgather: 'send_buf' is not contiguous (a std::list, a std::vector<bool>, ...): give a contiguous buffer such as a std::vector (of nampi::bool_value for bools)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<bool> flags(3, true);
  auto all = comm.allgather(send_buf(flags));
}
