// std::vector<bool> is packed bits, not a buffer of bools: the message points to nampi::bool_value.
// expect-error: nampi: 'send_buf' is not contiguous (a std::list, a std::vector<bool>, ...): give a contiguous buffer such as a std::vector (of nampi::bool_value for bools)
// expect-note: nampi::error::buffer_is_not_contiguous<nampi::call::allgather, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<bool> flags(3, true);
  auto all = comm.allgather(send_buf(flags));
}
