#if defined(NAMPI_BENCH_LEAN)  // vector_allgather_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/allgatherv.hpp>
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
  const long long n = args.get_int("n", 200000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const auto local = vector_allgather::generate(seed, comm.rank(), comm.size(), n);

  std::vector<std::uint64_t> all;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 10)),
                                        [&] { all = comm.allgatherv(send_buf(local)); });

  bench::require(vector_allgather::check(all, seed, comm.size(), n), "gathered vectors differ");
  bench::report("vector_allgather", "nampi", comm.size(), seconds, bench::hex(bench::fnv1a(all)));
}
