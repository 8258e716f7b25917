#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  auto local = micro::make_local(comm.rank(), n);
  std::vector<int> all;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      all = comm.allgatherv(send_buf(local));
    }
  });
  auto checksum = micro::check(all, comm.size(), n);
  bench::report("allgatherv_inferred", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
