#include <mpi.h>

#include <numeric>

#include "bench_util.hpp"
#include "common.hpp"

std::vector<std::uint64_t> sort(const std::vector<std::uint64_t>& input, int oversampling,
                                int size) {
  const auto sorted = sample_sort::sorted_copy(input);
  const auto local_samples = sample_sort::regular_samples(sorted, oversampling);
  std::vector<std::uint64_t> samples(local_samples.size() * size);
  MPI_Allgather(local_samples.data(), oversampling, MPI_UINT64_T, samples.data(), oversampling,
                MPI_UINT64_T, MPI_COMM_WORLD);
  const auto splitters = sample_sort::choose_splitters(std::move(samples), size);
  const auto counts = sample_sort::partition_counts(sorted, splitters);
  std::vector<int> recv_counts(size);
  MPI_Alltoall(counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> send_displs(size);
  std::vector<int> recv_displs(size);
  std::exclusive_scan(counts.begin(), counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<std::uint64_t> received(recv_displs.back() + recv_counts.back());
  MPI_Alltoallv(sorted.data(), counts.data(), send_displs.data(), MPI_UINT64_T, received.data(),
                recv_counts.data(), recv_displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  sample_sort::local_sort(received);
  return received;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 1000000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const int oversampling = static_cast<int>(args.get_int("oversampling", 16));
  const auto input = sample_sort::generate(seed, rank, n);

  std::vector<std::uint64_t> output;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 3)),
                                        [&] { output = sort(input, oversampling, size); });

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
  bench::report("sample_sort", "mpi", size, seconds, bench::hex(bench::fnv1a(totals)));
  MPI_Finalize();
}
