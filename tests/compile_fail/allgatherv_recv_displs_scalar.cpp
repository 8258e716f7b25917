// Misuse: one displacement where scatterv needs one per rank.
// expect-error: nampi: recv_displs: expects an array
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(send_buf(v), recv_counts(v), recv_displs(0));
}
