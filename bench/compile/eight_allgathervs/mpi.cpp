// nampi.cpp's eight allgathervs with plain MPI: each gathers the counts, sums
// them up and gathers the vectors (bench/compile_time.py).
#include <mpi.h>

#include <numeric>
#include <vector>

template <typename T>
MPI_Datatype datatype();
template <> MPI_Datatype datatype<char>() { return MPI_CHAR; }
template <> MPI_Datatype datatype<short>() { return MPI_SHORT; }
template <> MPI_Datatype datatype<int>() { return MPI_INT; }
template <> MPI_Datatype datatype<long>() { return MPI_LONG; }
template <> MPI_Datatype datatype<long long>() { return MPI_LONG_LONG; }
template <> MPI_Datatype datatype<unsigned>() { return MPI_UNSIGNED; }
template <> MPI_Datatype datatype<float>() { return MPI_FLOAT; }
template <> MPI_Datatype datatype<double>() { return MPI_DOUBLE; }

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
#if defined(ONE_ALLGATHERV)  // bench/compile/one_allgatherv: one element type
  const std::size_t n = gathered<int>(size), per_rank = 10;
#else
  const std::size_t n = gathered<char>(size) + gathered<short>(size) + gathered<int>(size) +
                        gathered<long>(size) + gathered<long long>(size) +
                        gathered<unsigned>(size) + gathered<float>(size) + gathered<double>(size);
  const std::size_t per_rank = 80;
#endif
  MPI_Finalize();
  return n == per_rank * static_cast<std::size_t>(size) ? 0 : 1;
}
