// Misuse: allgatherv creates the per-rank values of a serialized send_buf itself;
// a serialized recv_buf would take every rank's bytes as one value.
// expect-error: nampi: this buffer may not be serialized in this call
// expect-note: nampi::error::buffer_may_not_be_serialized<nampi::call::allgatherv, nampi::param_id::recv_buf>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::string mine = "rank";
  std::vector<std::string> all;
  comm.allgatherv(send_buf(nampi::as_serialized(mine)), recv_buf(nampi::as_serialized(all)));
}
