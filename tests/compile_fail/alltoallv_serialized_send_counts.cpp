// Misuse: with a serialized send_buf the byte counts come from the serialized
// values; counts the caller gives could not match them.
// expect-error: nampi: this parameter is computed from the serialized buffer
// expect-note: nampi::error::computed_from_the_serialized_buffer<nampi::call::alltoallv, nampi::param_id::send_counts>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<std::string> words(static_cast<std::size_t>(comm.size()), "word");
  auto all = comm.alltoallv(send_buf(nampi::as_serialized(words)),
                            send_counts(std::vector<int>(words.size(), 4)));
}
