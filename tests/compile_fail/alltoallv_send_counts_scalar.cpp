// Misuse: one count where alltoallv needs one per rank.
// expect-error: nampi: send_counts: expects an array
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.alltoallv(send_buf(v), send_counts(2));
}
