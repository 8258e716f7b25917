// A vector of vectors is contiguous, but its elements are containers, which no datatype describes: the message points to nampi::with_flattened.
// expect-error: nampi: 'send_buf' is not a buffer of MPI elements (its elements are containers): flatten it with nampi::with_flattened(x)
// expect-note: nampi::error::buffer_elements_are_containers<nampi::call::alltoallv, nampi::param_id::send_buf>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<std::vector<int>> per_rank(static_cast<std::size_t>(comm.size()), std::vector<int>{1});
  auto in = comm.alltoallv(send_buf(per_rank), send_counts(std::vector<int>(per_rank.size(), 1)));
}
