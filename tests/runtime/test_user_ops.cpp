// User-defined reduction operations: any callable (stateless or not) becomes
// a user MPI_Op; results checked against the serial computation, MPI calls
// counted with the PMPI counter.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

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

TEST_CASE("typed ops take the elements as they are; generic ones too") {
  // An op typed for another element type is a compile error (tests/compile_fail/
  // allreduce_single_op_takes_other_type.cpp: int on doubles gave 2.0 for 1.5 + 1.5).
  nampi::Communicator comm;
  const double size = comm.size();
  const double typed =
      comm.allreduce_single(send_buf(1.5), op([](double a, double b) { return a + b; }));
  CHECK(typed == 1.5 * size);
  const double by_reference = comm.allreduce_single(
      send_buf(1.5),
      op([](const double& a, const double& b) { return a + b; }, nampi::commutative));
  CHECK(by_reference == 1.5 * size);
  const double generic =
      comm.allreduce_single(send_buf(1.5), op([](auto a, auto b) { return a + b; }));
  CHECK(generic == 1.5 * size);
  const std::vector<float> halves = comm.allreduce(send_buf(std::vector<float>{0.5f, 0.25f}),
                                                   op([](auto a, const auto& b) { return a + b; }));
  CHECK(halves == std::vector<float>{0.5f * comm.size(), 0.25f * comm.size()});
  // A typed std functor still maps to the builtin op, which MPI applies to doubles.
  CHECK(comm.allreduce_single(send_buf(1.5), op(std::plus<int>{})) == 1.5 * size);
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

namespace {
// The affine map x -> scale * x + shift as a 2x2 matrix {{scale, shift}, {0, 1}}:
// their product depends on the order.
struct affine {
  long scale;
  long shift;
  friend bool operator==(const affine&, const affine&) = default;
};
affine compose(const affine& a, const affine& b) {  // the matrix product a * b
  return {a.scale * b.scale, a.scale * b.shift + a.shift};
}
affine rank_map(int rank) { return {rank + 1, 1}; }
// The serial product rank_map(0) * ... * rank_map(last).
affine serial_product(int last) {
  affine product{1, 0};
  for (int r = 0; r <= last; ++r) product = compose(product, rank_map(r));
  return product;
}

int add_ints(int a, int b) { return a + b; }

struct vec3 {
  double v[3];
  friend bool operator==(const vec3&, const vec3&) = default;
};
vec3 max_each(const vec3& a, const vec3& b) {
  vec3 out{};
  for (int i = 0; i < 3; ++i) out.v[i] = a.v[i] < b.v[i] ? b.v[i] : a.v[i];
  return out;
}

// A function object with state: adds modulo the modulus it holds (associative,
// as MPI requires of every op).
struct modular_sum {
  int modulus;
  int operator()(int a, int b) const { return (a + b) % modulus; }
};
}  // namespace

TEST_CASE("a capturing lambda: the captured value takes part in every combination") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const int bonus = 10;
  auto add_bonus = [bonus](int a, int b) { return a + b + bonus; };
  // size - 1 combinations, each adding the bonus once.
  const int all = comm.allreduce_single(send_buf(rank), op(add_bonus));
  CHECK(all == size * (size - 1) / 2 + bonus * (size - 1));
  const int at_root = comm.reduce_single(send_buf(rank), op(add_bonus), root(0));
  if (rank == 0) CHECK(at_root == size * (size - 1) / 2 + bonus * (size - 1));
  const int prefix = comm.scan_single(send_buf(rank), op(add_bonus));
  CHECK(prefix == rank * (rank + 1) / 2 + bonus * rank);
  const int before = comm.exscan_single(send_buf(rank), op(add_bonus));
  if (rank > 0) CHECK(before == rank * (rank - 1) / 2 + bonus * (rank - 1));
}

TEST_CASE("a function object with state, a function pointer and std::function") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  std::vector<int> mine{1, rank};
  auto modular = comm.allreduce(send_buf(mine), op(modular_sum{3}));
  CHECK(modular == std::vector<int>{size % 3, size * (size - 1) / 2 % 3});
  CHECK(comm.allreduce_single(send_buf(rank + 1), op(&add_ints)) == size * (size + 1) / 2);
  CHECK(comm.allreduce_single(send_buf(rank + 1), op(add_ints)) == size * (size + 1) / 2);
  int (*pointer)(int, int) = &add_ints;
  CHECK(comm.scan_single(send_buf(rank + 1), op(pointer)) == (rank + 1) * (rank + 2) / 2);
  const std::function<int(int, int)> maximum = [](int a, int b) { return a < b ? b : a; };
  CHECK(comm.allreduce_single(send_buf(rank), op(maximum)) == size - 1);
  CHECK(comm.reduce(send_buf(mine), op(maximum, nampi::commutative), root(0)) ==
        (rank == 0 ? std::vector<int>{1, size - 1} : std::vector<int>{}));
}

TEST_CASE("a non-commutative op is applied in rank order (products of affine maps)") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const std::vector<affine> mine{rank_map(rank), rank_map(size - 1 - rank)};
  auto all = comm.allreduce(send_buf(mine), op(compose, nampi::non_commutative));
  affine reversed{1, 0};
  for (int r = 0; r < size; ++r) reversed = compose(reversed, rank_map(size - 1 - r));
  CHECK(all == std::vector<affine>{serial_product(size - 1), reversed});
  auto prefix = comm.scan(send_buf(mine), op(compose));
  CHECK(prefix[0] == serial_product(rank));
  const affine shift{1, size};  // a capture (equal on all ranks) makes the op stateful
  auto stateful = [shift](const affine& a, const affine& b) {
    return compose(compose(a, shift), b);
  };
  const affine got = comm.scan_single(send_buf(rank_map(rank)), op(stateful));
  affine expected = rank_map(0);
  for (int r = 1; r <= rank; ++r) expected = compose(compose(expected, shift), rank_map(r));
  CHECK(got == expected);
  if (rank > 0) {
    CHECK(comm.exscan_single(send_buf(rank_map(rank)), op(compose)) == serial_product(rank - 1));
  } else {
    (void)comm.exscan_single(send_buf(rank_map(rank)), op(compose));
  }
}

TEST_CASE("user types: component-wise max of 3-vectors on every reduction") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  auto element = [&](int r, int i) {
    return vec3{{double(r), double(-r), double((r + i) % size)}};
  };
  auto max_upto = [&](int last, int i) {
    vec3 out = element(0, i);
    for (int r = 1; r <= last; ++r) out = max_each(out, element(r, i));
    return out;
  };
  std::vector<vec3> mine;
  for (int i = 0; i < size; ++i) mine.push_back(element(rank, i));
  auto all = comm.allreduce(send_buf(mine), op(max_each, nampi::commutative));
  for (int i = 0; i < size; ++i) CHECK(all[i] == max_upto(size - 1, i));
  auto at_root = comm.reduce(send_buf(mine), op(&max_each), root(0));
  if (rank == 0) CHECK(at_root == all);
  auto prefix = comm.scan(send_buf(mine), op(max_each));
  for (int i = 0; i < size; ++i) CHECK(prefix[i] == max_upto(rank, i));
  auto before = comm.exscan(send_buf(mine), op(max_each), recv_buf(std::vector<vec3>(size)));
  if (rank > 0)
    for (int i = 0; i < size; ++i) CHECK(before[i] == max_upto(rank - 1, i));
  auto block = comm.reduce_scatter_block(send_buf(mine), op(max_each), recv_count(1));
  CHECK(block == std::vector<vec3>{max_upto(size - 1, rank)});
  std::vector<vec3> two_each;
  for (int i = 0; i < size; ++i) two_each.insert(two_each.end(), 2, element(rank, i));
  auto scattered =
      comm.reduce_scatter(send_buf(two_each), op(max_each), recv_counts(std::vector<int>(size, 2)));
  CHECK(scattered == std::vector<vec3>(2, max_upto(size - 1, rank)));
}

TEST_CASE("call counts: a stateless op is created once, a stateful one leases one entry") {
  nampi::Communicator comm;
  nampi::detail::op_registry().free_all();  // start without cached ops
  nampi_pmpi_reset();
  int total = 0;
  for (int i = 0; i < 1000; ++i)
    total += comm.allreduce_single(send_buf(1), op([](int a, int b) { return a + b; }));
  CHECK(total == 1000 * comm.size());
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Allreduce", 1000}, {"MPI_Op_create", 1}});

  // Sequential calls with a stateful callable all lease entry 0: one MPI_Op
  // per commutativity for the whole program, none per call.
  nampi_pmpi_reset();
  total = 0;
  for (int i = 0; i < 300; ++i) {
    const int scale = i % 3;
    total += comm.allreduce_single(send_buf(1), op([scale](int a, int b) { return a + b; }));
    total += comm.allreduce_single(send_buf(scale),
                                   op([scale](int a, int b) { return a + b; }, nampi::commutative));
  }
  CHECK(total == 300 * comm.size() + 300 * comm.size());
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Allreduce", 600}, {"MPI_Op_create", 2}});

  nampi_pmpi_reset();
  nampi::detail::op_registry().free_all();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Op_free", 3}});
}
