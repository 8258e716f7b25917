#if defined(NAMPI_BENCH_LEAN)  // sample_sort_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/allgather.hpp>
#include <nampi/calls/alltoallv.hpp>
#include <nampi/calls/reduce.hpp>
#else
#include <nampi/nampi.hpp>
#endif

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;

std::vector<std::uint64_t> sort(const nampi::Communicator& comm,
                                const std::vector<std::uint64_t>& input, int oversampling) {
  const auto sorted = sample_sort::sorted_copy(input);
  const auto splitters = sample_sort::choose_splitters(
      comm.allgather(send_buf(sample_sort::regular_samples(sorted, oversampling))), comm.size());
  const auto counts = sample_sort::partition_counts(sorted, splitters);
  auto received = comm.alltoallv(send_buf(sorted), send_counts(counts));
  sample_sort::local_sort(received);
  return received;
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 1000000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const int oversampling = static_cast<int>(args.get_int("oversampling", 16));
  const auto input = sample_sort::generate(seed, comm.rank(), n);

  std::vector<std::uint64_t> output;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 3)),
                                        [&] { output = sort(comm, input, oversampling); });

  bench::require(std::is_sorted(output.begin(), output.end()), "not sorted locally");
  const auto all_bounds = comm.allgather(send_buf(sample_sort::bounds(output)));
  bench::require(sample_sort::globally_sorted(all_bounds, n * comm.size()), "not sorted globally");
  const auto totals = comm.reduce(send_buf(sample_sort::digests(input, output)), op(std::plus<>{}));
  bench::require(comm.rank() != 0 || sample_sort::same_keys(totals), "keys lost or changed");
  bench::report("sample_sort", "nampi", comm.size(), seconds, bench::hex(bench::fnv1a(totals)));
}
