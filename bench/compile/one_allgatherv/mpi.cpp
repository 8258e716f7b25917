// one_allgatherv's program with plain MPI: eight_allgathervs/mpi.cpp with one element type
// (bench/compile_time.py).
#include <mpi.h>

#include <numeric>
#include <vector>

template <typename T>
MPI_Datatype datatype();
template <>
MPI_Datatype datatype<int>() {
  return MPI_INT;
}

template <typename T>
std::size_t gathered(int size) {
  const std::vector<T> local(10);
  const int count = static_cast<int>(local.size());
  std::vector<int> counts(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> displs(size);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<T> all(static_cast<std::size_t>(displs.back()) + counts.back());
  MPI_Allgatherv(local.data(), count, datatype<T>(), all.data(), counts.data(), displs.data(),
                 datatype<T>(), MPI_COMM_WORLD);
  return all.size();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::size_t n = gathered<int>(size);
  MPI_Finalize();
  return n == 10 * static_cast<std::size_t>(size) ? 0 : 1;
}
