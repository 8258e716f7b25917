// Misuse: a serialized buffer in a persistent call, which would send the bytes
// of the first start() again at every later one. The blocking and nonblocking
// scatter(v) and alltoall(v) take one value per rank; their persistent forms
// take none.
// expect-error: nampi: a persistent call takes no serialized buffer
// expect-error: nampi: a persistent call takes no serialized buffer
// expect-note: nampi::error::persistent_call_takes_no_serialized_buffer<nampi::call::scatter_init, nampi::param_id::send_buf>
// expect-note: nampi::error::persistent_call_takes_no_serialized_buffer<nampi::call::alltoallv_init, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<std::string> words(static_cast<std::size_t>(comm.size()), "word");
  auto scatter = comm.scatter_init(send_buf(nampi::as_serialized(words)));
  auto alltoallv = comm.alltoallv_init(send_buf(nampi::as_serialized(words)));
}
