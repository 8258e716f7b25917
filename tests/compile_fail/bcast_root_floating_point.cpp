// Misuse: a floating-point root.
// expect-error: nampi: root: expects an integer, got a floating-point value
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.bcast(send_recv_buf(v), root(0.0));
}
