// The same exchange over a grid of the ranks (made once, outside the timing): in two hops,
// about 2 sqrt(p) partners per rank instead of p. columns=0 (the default): the default grid,
// which exchanges directly below 16 ranks; columns=c: a grid of c columns, always two hops;
// two_hops=1: the default grid's shape given, so two hops at any p (bench/scale's few ranks).
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
  int columns = static_cast<int>(args.get_int("columns", 0));
  if (args.get_int("two_hops", 0) != 0)
    while ((columns + 1) * (columns + 1) <= comm.size()) ++columns;  // floor(sqrt(p))
  const auto grid = columns == 0 ? comm.make_grid_communicator()
                                 : nampi::plugins::grid_communicator(comm, columns);
  std::vector<int> received;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i)
      grid.alltoallv(send_buf(data), send_counts(counts), recv_buf<nampi::resize_to_fit>(received));
  });
  auto checksum = micro::check(received, comm.rank(), comm.size(), n);
  bench::report("grid_alltoallv", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
