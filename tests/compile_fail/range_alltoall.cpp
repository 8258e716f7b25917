// A call the range backend lacks (spec/backends.yaml): one message naming the call, the
// communicator type and the functions it lacks.
// expect-error: nampi: alltoall: not a call of nampi::RangeCommunicator (its backend lacks MPI_Alltoall
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0), last(comm.size() - 1));
  std::vector<int> v(static_cast<std::size_t>(r.size()), 1);
  auto got = r.alltoall(send_buf(v));
}
