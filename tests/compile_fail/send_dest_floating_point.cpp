// Misuse: a floating-point rank (1.7 would silently become 1).
// expect-error: nampi: dest: expects an integer, got a floating-point value
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), dest(1.7));
}
