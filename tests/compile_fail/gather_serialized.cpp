// Misuse: a serialized buffer in a call that does not take one (yet): gather
// would need a size exchange first, so it is refused rather than sent as bytes.
// expect-error: nampi: gather: serialized buffers are not supported yet
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::map<std::string, int> mine{{"rank", comm.rank()}};
  auto all = comm.gather(send_buf(nampi::as_serialized(mine)));
}
