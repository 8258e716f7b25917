// Eight instances of one call (allgatherv of eight element types), against
// mpi.cpp, which does the same with plain MPI: what each instance of a call
// costs to compile once the headers are paid (bench/compile_time.py; the
// include-only unit is the rest).
#if defined(CORE_INCLUDE)  // bench/compile/one_allgatherv_core: the lean include
#include <nampi/calls/allgatherv.hpp>
#include <nampi/core.hpp>
#else
#include <nampi/nampi.hpp>
#endif

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
#if defined(ONE_ALLGATHERV)  // bench/compile/one_allgatherv: one element type
  const std::size_t n = gathered<int>(comm), per_rank = 10;
#else
  const std::size_t n = gathered<char>(comm) + gathered<short>(comm) + gathered<int>(comm) +
                        gathered<long>(comm) + gathered<long long>(comm) +
                        gathered<unsigned>(comm) + gathered<float>(comm) + gathered<double>(comm);
  const std::size_t per_rank = 80;
#endif
  return n == per_rank * static_cast<std::size_t>(comm.size()) ? 0 : 1;
}
