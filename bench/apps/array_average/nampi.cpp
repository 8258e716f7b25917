#if defined(NAMPI_BENCH_LEAN)  // array_average_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/reduce_single.hpp>
#else
#include <nampi/nampi.hpp>
#endif

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 50000000);
  const auto share = array_average::share_of(n, comm.rank(), comm.size());
  std::vector<double> part(share.end - share.begin);

  double total = 0.0;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 5)), [&] {
    array_average::fill(part, share.begin);
    total = comm.reduce_single(send_buf(array_average::sum(part)), op(std::plus<>{}));
  });

  bench::require(comm.rank() != 0 || total == array_average::expected_sum(n), "wrong sum");
  bench::report("array_average", "nampi", comm.size(), seconds, array_average::format(total / n));
}
