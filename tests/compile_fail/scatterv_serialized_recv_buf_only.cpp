// Misuse: a serialized recv_buf with a plain send_buf. The byte counts of a
// serialized scatterv come from the root's serialized values, so every rank
// passes send_buf(as_serialized(values)), an empty range off the root.
// expect-error: nampi: scatterv: with a serialized buffer, 'send_buf' must be serialized too
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<char> nothing;
  auto mine = comm.scatterv(send_buf(nothing), recv_buf(nampi::as_deserializable<std::string>()));
}
