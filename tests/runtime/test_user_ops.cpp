// User-defined reduction operations: stateless callables become MPI_Ops for
// the duration of one call.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

namespace {
struct point {
  int x;
  int y;
  friend bool operator==(const point&, const point&) = default;
};
}  // namespace

TEST_CASE("a capture-free lambda reduces like the builtin it imitates") {
  nampi::Communicator comm;
  const int size = comm.size();
  const int sum =
      comm.allreduce_single(send_buf(comm.rank() + 1), op([](int a, int b) { return a + b; }));
  CHECK(sum == size * (size + 1) / 2);
  const int product = comm.allreduce_single(
      send_buf(2), op(nampi::commutative([](int a, int b) { return a * b; })));
  CHECK(product == 1 << size);
}

TEST_CASE("a user op combines a struct element-wise, in rank order when not commutative") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<point> mine{{rank, 1}, {-rank, 2}};
  // Keeps the left operand's x and adds the y: the result's x is rank 0's.
  auto keep_first = [](point a, point b) { return point{a.x, a.y + b.y}; };
  auto all = comm.allreduce(send_buf(mine), op(keep_first));
  CHECK(all == std::vector<point>{{0, size}, {0, 2 * size}});
  auto prefix = comm.scan(send_buf(mine), op(keep_first));
  CHECK(prefix == std::vector<point>{{0, rank + 1}, {0, 2 * (rank + 1)}});
}

TEST_CASE("a user op works in place and at the root") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<long> data{rank, 2L * rank};
  auto max_of = [](long a, long b) { return a < b ? b : a; };
  comm.allreduce(send_recv_buf(data), op(nampi::commutative(max_of)));
  CHECK(data == std::vector<long>{size - 1, 2L * (size - 1)});
  auto at_root = comm.reduce(send_buf(std::vector<long>{rank}), op(max_of), root(size - 1));
  if (rank == size - 1) CHECK(at_root == std::vector<long>{size - 1});
  if (rank != size - 1) CHECK(at_root.empty());
}
