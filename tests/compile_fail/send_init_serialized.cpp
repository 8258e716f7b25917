// Misuse: a serialized buffer in a persistent call, which would send the bytes
// of the first start() again at every later one.
// expect-error: nampi: a persistent call takes no serialized buffer
// expect-note: nampi::error::persistent_call_takes_no_serialized_buffer<nampi::call::send_init, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<std::string> words{"a", "b"};
  auto call = comm.send_init(send_buf(nampi::as_serialized(words)), dest(0));
}
