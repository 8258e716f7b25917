// Misuse: a plain vector passed to allgatherv instead of send_buf(v).
// expect-error: nampi: allgatherv: every argument must be a named parameter such as send_buf(x)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(v);
}
