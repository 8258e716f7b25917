// The same exchange in two hops over a grid of the ranks (made once, outside the timing):
// about 2 sqrt(p) partners per rank instead of p.
#include <nampi/nampi.hpp>
#include <nampi/plugins/grid_alltoall.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::grid_alltoall> comm;
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 1));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const auto data = micro::make_send(comm.rank(), comm.size(), n);
  const auto counts = micro::make_counts(comm.rank(), comm.size(), n);
  const auto grid = comm.make_grid_communicator();
  std::vector<int> received;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i)
      grid.alltoallv(send_buf(data), send_counts(counts), recv_buf<nampi::resize_to_fit>(received));
  });
  auto checksum = micro::check(received, comm.rank(), comm.size(), n);
  bench::report("grid_alltoallv", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
