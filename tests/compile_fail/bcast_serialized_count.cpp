// Misuse: a serialized buffer's count is its number of bytes, which the call
// computes (and broadcasts); a count the caller gives could not match it.
// expect-error: nampi: this parameter is computed from the serialized buffer
// expect-note: nampi::error::computed_from_the_serialized_buffer<nampi::call::bcast, nampi::param_id::send_recv_count>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::string word = "word";
  comm.bcast(send_recv_buf(nampi::as_serialized(word)), send_recv_count(4));
}
