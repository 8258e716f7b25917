#include <nampi/nampi.hpp>
#include <nampi/plugins/sort.hpp>

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::sort> comm;
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 1000000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const auto input = sample_sort::generate(seed, comm.rank(), n);

  std::vector<std::uint64_t> output;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 3)), [&] {
    output = input;
    comm.sort(output);
  });

  bench::require(std::is_sorted(output.begin(), output.end()), "not sorted locally");
  const auto all_bounds = comm.allgather(send_buf(sample_sort::bounds(output)));
  bench::require(sample_sort::globally_sorted(all_bounds, n * comm.size()), "not sorted globally");
  const auto totals = comm.reduce(send_buf(sample_sort::digests(input, output)), op(std::plus<>{}));
  bench::require(comm.rank() != 0 || sample_sort::same_keys(totals), "keys lost or changed");
  bench::report("sort_plugin", "nampi", comm.size(), seconds, bench::hex(bench::fnv1a(totals)));
}
