// Misuse: with a serialized send_buf the displacements place the serialized
// bytes, which the call computes; displacements in elements would misplace them.
// expect-error: nampi: this parameter is computed from the serialized buffer
// expect-note: nampi::error::computed_from_the_serialized_buffer<nampi::call::scatterv, nampi::param_id::send_displs>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<std::string> words(static_cast<std::size_t>(comm.size()), "word");
  auto mine = comm.scatterv(send_buf(nampi::as_serialized(words)),
                            send_displs(std::vector<int>(words.size(), 0)));
}
