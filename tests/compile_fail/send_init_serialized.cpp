// Misuse: a serialized buffer in a persistent call, which would send the bytes
// of the first start() again at every later one.
// expect-error: nampi: send_init: a persistent call takes no serialized buffer
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
