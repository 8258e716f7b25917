// A std::list is no MPI buffer: its elements are not one after the other (before: 'not trivially copyable').
// expect-error: nampi: 'send_buf' is not contiguous (a std::list, a std::vector<bool>, ...): give a contiguous buffer such as a std::vector (of nampi::bool_value for bools), or nampi::as_serialized(x)
// expect-note: nampi::error::buffer_is_not_contiguous<nampi::call::send, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <list>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::list<int> values{1, 2, 3};
  comm.send(send_buf(values), dest(0));
}
