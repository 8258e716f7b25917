// Misuse: scatter sends the root's value i to rank i, so a serialized send_buf
// must be a range with one value per rank; one value (which would go to rank 0
// only) is refused. scatter with a serialized buffer is served by scatterv,
// whose check names it.
// expect-error: nampi: scatterv: a serialized 'send_buf' must be a range with one value per rank
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const int value = 42;
  auto mine = comm.scatter(send_buf(nampi::as_serialized(value)));
}
