// Misuse: a serialized buffer in a call that does not take one (yet): scatter
// would need one serialized block per rank, so it is refused rather than split
// as raw bytes.
// expect-error: nampi: scatter: serialized buffers are not supported yet
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<std::string> words(static_cast<std::size_t>(comm.size()), "word");
  auto mine = comm.scatter(send_buf(nampi::as_serialized(words)));
}
