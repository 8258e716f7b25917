#if defined(NAMPI_BENCH_LEAN)  // bcast_scaling_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/bcast.hpp>
#include <nampi/calls/bcast_single.hpp>
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
  const int min_log = static_cast<int>(args.get_int("min_log", 10));
  const int max_log = static_cast<int>(args.get_int("max_log", 28));
  const int reps = static_cast<int>(args.get_int("reps", 20));
  const bool is_root = comm.rank() == 0;

  bcast_scaling::times given;
  bcast_scaling::times inferred;
  std::uint64_t hash = 0;
  for (int log = min_log; log <= max_log; ++log) {
    auto buf = bcast_scaling::payload(log, is_root);
    const int count = static_cast<int>(buf.size());
    given.add(log, bench::measure(bcast_scaling::reps_for(log, reps),
                                  [&] { comm.bcast(send_recv_buf(buf), send_recv_count(count)); }));
    if (log == max_log) hash = bench::fnv1a(buf);
    bench::require(bcast_scaling::check_and_clear(buf, log, is_root), "broadcast data differ");
    inferred.add(log, bench::measure(bcast_scaling::reps_for(log, reps),
                                     [&] { comm.bcast(send_recv_buf(buf)); }));
    bench::require(bcast_scaling::check_and_clear(buf, log, is_root), "broadcast data differ");
  }

  hash = comm.bcast_single(send_buf(hash), root(comm.size() - 1));
  if (is_root) bcast_scaling::report("nampi", comm.size(), given, inferred, hash);
}
