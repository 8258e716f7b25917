#include <mpi.h>

#include <numeric>

#include "bench_util.hpp"
#include "common.hpp"

template <class T>
std::vector<T> alltoallv(const std::vector<T>& send, const std::vector<int>& send_counts,
                         std::vector<int>& recv_counts, MPI_Datatype type) {
  const auto size = send_counts.size();
  recv_counts.resize(size);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> send_displs(size);
  std::vector<int> recv_displs(size);
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<T> recv(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), type, recv.data(),
                recv_counts.data(), recv_displs.data(), type, MPI_COMM_WORLD);
  return recv;
}

std::vector<bfs::point> sendrecv(const std::vector<bfs::point>& send, int dest, int source,
                                 MPI_Datatype type) {
  int count = static_cast<int>(send.size());
  int recv_count = 0;
  MPI_Sendrecv(&count, 1, MPI_INT, dest, 0, &recv_count, 1, MPI_INT, source, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  std::vector<bfs::point> recv(static_cast<std::size_t>(recv_count));
  MPI_Sendrecv(send.data(), count, type, dest, 0, recv.data(), recv_count, type, source, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return recv;
}

bfs::graph make_graph(const bfs::config& c) {
  if (c.graph == "er") {
    std::vector<int> counts;
    std::vector<int> recv_counts;
    auto edges = bfs::er_edges(c, counts);
    MPI_Datatype edge_type;
    MPI_Type_contiguous(sizeof(bfs::edge), MPI_BYTE, &edge_type);
    MPI_Type_commit(&edge_type);
    auto graph = bfs::build_graph(c, alltoallv(edges, counts, recv_counts, edge_type));
    MPI_Type_free(&edge_type);
    return graph;
  }
  const double radius = bfs::rgg_radius(c);
  const auto points = bfs::rgg_points(c);
  const int left = c.rank > 0 ? c.rank - 1 : MPI_PROC_NULL;
  const int right = c.rank + 1 < c.size ? c.rank + 1 : MPI_PROC_NULL;
  MPI_Datatype point_type;
  MPI_Type_contiguous(sizeof(bfs::point), MPI_BYTE, &point_type);
  MPI_Type_commit(&point_type);
  auto from_right = sendrecv(bfs::rgg_border(c, points, radius, 0), left, right, point_type);
  auto from_left = sendrecv(bfs::rgg_border(c, points, radius, 1), right, left, point_type);
  MPI_Type_free(&point_type);
  return bfs::build_graph(c, bfs::rgg_edges(c, points, from_left, from_right, radius));
}

void run_bfs(const bfs::config& c, const bfs::graph& g, bfs::state& s) {
  std::vector<int> recv_counts;
  long long active = 0;
  bfs::start(c, s);
  do {
    bfs::expand(c, g, s);
    bfs::visit(c, alltoallv(s.send, s.counts, recv_counts, MPI_UINT32_T), s);
    const long long size = bfs::frontier_size(s);
    MPI_Allreduce(&size, &active, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  } while (active > 0);
}

void check(const bfs::config& c, const bfs::graph& g, const std::vector<int>& dist) {
  std::vector<int> counts;
  std::vector<int> asked_counts;
  std::vector<int> answer_counts;
  const auto ghosts = bfs::remote_neighbours(c, g, counts);
  const auto asked = alltoallv(ghosts, counts, asked_counts, MPI_UINT32_T);
  const auto answers = alltoallv(bfs::lookup(c, asked, dist), asked_counts, answer_counts, MPI_INT);
  bfs::check(c, g, dist, ghosts, answers);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto c = bfs::read_config(bench::args(argc, argv), rank, size);
  const auto g = make_graph(c);

  bfs::state s;
  const double seconds = bench::measure(c.reps, [&] { run_bfs(c, g, s); });

  check(c, g, s.dist);
  const auto local = bfs::summary(s.dist);
  std::array<long long, 2> totals{};
  MPI_Reduce(local.data(), totals.data(), 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  bench::report("bfs", "mpi", c.size, seconds, bfs::checksum(totals));
  MPI_Finalize();
}
