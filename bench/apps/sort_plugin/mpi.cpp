// The sort plugin's algorithm in plain MPI: PSRS, p - 1 regular samples per rank with ties
// broken by (rank, position), p - 1 splitters, one exchange, a local sort.
#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "bench_util.hpp"
#include "common.hpp"

namespace {

struct keyed {
  std::uint64_t value;
  int rank;
  std::int64_t position;
};

bool before(const keyed& a, const keyed& b) {
  if (a.value != b.value) return a.value < b.value;
  return a.rank != b.rank ? a.rank < b.rank : a.position < b.position;
}

std::vector<std::uint64_t> psrs(std::vector<std::uint64_t> data, int rank, int size) {
  std::sort(data.begin(), data.end());
  const auto m = static_cast<std::int64_t>(data.size());
  std::vector<keyed> samples;
  for (int k = 1; k < size && m > 0; ++k) {
    const std::int64_t at = k * m / size;
    if (samples.empty() || samples.back().position != at) samples.push_back({data[at], rank, at});
  }
  const int bytes = static_cast<int>(samples.size() * sizeof(keyed));
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<keyed> all((displs.back() + counts.back()) / sizeof(keyed));
  MPI_Allgatherv(samples.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(),
                 MPI_BYTE, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end(), before);
  std::vector<int> send_counts(size, 0), recv_counts(size), send_displs(size), recv_displs(size);
  std::int64_t start = 0;
  for (int b = 0; b < size; ++b) {
    std::int64_t end = m;
    if (b + 1 < size && !all.empty()) {
      const keyed& splitter = all[static_cast<std::size_t>(b + 1) * all.size() / size];
      std::int64_t lo = start, hi = m;
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (before(keyed{data[mid], rank, mid}, splitter))
          lo = mid + 1;
        else
          hi = mid;
      }
      end = lo;
    }
    send_counts[b] = static_cast<int>(end - start);
    start = end;
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<std::uint64_t> received(recv_displs.back() + recv_counts.back());
  MPI_Alltoallv(data.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, received.data(),
                recv_counts.data(), recv_displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  std::sort(received.begin(), received.end());
  return received;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 1000000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const auto input = sample_sort::generate(seed, rank, n);

  std::vector<std::uint64_t> output;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 3)), [&] {
    output = size == 1 ? sample_sort::sorted_copy(input) : psrs(input, rank, size);
  });

  bench::require(std::is_sorted(output.begin(), output.end()), "not sorted locally");
  const auto local_bounds = sample_sort::bounds(output);
  std::vector<std::uint64_t> all_bounds(local_bounds.size() * size);
  MPI_Allgather(local_bounds.data(), 3, MPI_UINT64_T, all_bounds.data(), 3, MPI_UINT64_T,
                MPI_COMM_WORLD);
  bench::require(sample_sort::globally_sorted(all_bounds, n * size), "not sorted globally");
  const auto local_totals = sample_sort::digests(input, output);
  std::vector<std::uint64_t> totals(rank == 0 ? local_totals.size() : 0);
  MPI_Reduce(local_totals.data(), totals.data(), 4, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  bench::require(rank != 0 || sample_sort::same_keys(totals), "keys lost or changed");
  bench::report("sort_plugin", "mpi", size, seconds, bench::hex(bench::fnv1a(totals)));
  MPI_Finalize();
}
