#if defined(NAMPI_BENCH_LEAN)  // bfs_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/allreduce_single.hpp>
#include <nampi/calls/alltoallv.hpp>
#include <nampi/calls/reduce.hpp>
#include <nampi/calls/sendrecv.hpp>
#else
#include <nampi/nampi.hpp>
#endif

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;

bfs::graph make_graph(const nampi::Communicator& comm, const bfs::config& c) {
  if (c.graph == "er") {
    std::vector<int> counts;
    auto edges = bfs::er_edges(c, counts);
    return bfs::build_graph(c, comm.alltoallv(send_buf(edges), send_counts(counts)));
  }
  const double radius = bfs::rgg_radius(c);
  const auto points = bfs::rgg_points(c);
  const int left = c.rank > 0 ? c.rank - 1 : MPI_PROC_NULL;
  const int right = c.rank + 1 < c.size ? c.rank + 1 : MPI_PROC_NULL;
  auto from_right =
      comm.sendrecv(send_buf(bfs::rgg_border(c, points, radius, 0)), dest(left), source(right));
  auto from_left =
      comm.sendrecv(send_buf(bfs::rgg_border(c, points, radius, 1)), dest(right), source(left));
  return bfs::build_graph(c, bfs::rgg_edges(c, points, from_left, from_right, radius));
}

void run_bfs(const nampi::Communicator& comm, const bfs::config& c, const bfs::graph& g,
             bfs::state& s) {
  bfs::start(c, s);
  do {
    bfs::expand(c, g, s);
    bfs::visit(c, comm.alltoallv(send_buf(s.send), send_counts(s.counts)), s);
  } while (comm.allreduce_single(send_buf(bfs::frontier_size(s)), op(std::plus<>{})) > 0);
}

void check(const nampi::Communicator& comm, const bfs::config& c, const bfs::graph& g,
           const std::vector<int>& dist) {
  std::vector<int> counts;
  const auto ghosts = bfs::remote_neighbours(c, g, counts);
  auto [asked, asked_counts] =
      comm.alltoallv(send_buf(ghosts), send_counts(counts), recv_counts_out());
  auto answers = comm.alltoallv(send_buf(bfs::lookup(c, asked, dist)), send_counts(asked_counts));
  bfs::check(c, g, dist, ghosts, answers);
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const auto c = bfs::read_config(bench::args(argc, argv), comm.rank(), comm.size());
  const auto g = make_graph(comm, c);

  bfs::state s;
  const double seconds = bench::measure(c.reps, [&] { run_bfs(comm, c, g, s); });

  check(comm, c, g, s.dist);
  const auto totals = comm.reduce(send_buf(bfs::summary(s.dist)), op(std::plus<>{}));
  bench::report("bfs", "nampi", c.size, seconds, bfs::checksum(totals));
}
