// Misuse: a floating-point count given as a scalar.
// expect-error: nampi: send_count: expects an integer, got a floating-point value
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), send_count(2.5), dest(0));
}
