// eight_allgathervs with one element type: against eight_allgathervs, what each further
// instance of a call costs once the headers, the environment and the code every allgatherv
// shares are paid (bench/compile_time.py).
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

template <typename T>
std::size_t gathered(const nampi::Communicator& comm) {
  const std::vector<T> local(10);
  return comm.allgatherv(send_buf(local)).size();
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::size_t n = gathered<int>(comm);
  return n == 10 * static_cast<std::size_t>(comm.size()) ? 0 : 1;
}
