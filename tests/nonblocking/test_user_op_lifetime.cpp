// User ops in nonblocking and persistent reductions: the callable and its op
// table lease live as long as the request; leases are released; no MPI_Op is
// leaked. Counts are read as differences: nothing here resets the counter, so
// the last case sees the whole program.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <functional>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

namespace {
unsigned long long calls_of(const std::string& name) {
  const auto counts = nampi_pmpi::snapshot();
  const auto found = counts.find(name);
  return found == counts.end() ? 0 : found->second;
}
// A user type: the value and the lowest rank holding it (like MPI_MINLOC).
struct min_at {
  int value;
  int rank;
  friend bool operator==(const min_at&, const min_at&) = default;
};
}  // namespace

TEST_CASE("nonblocking reductions of a user type with a stateful op, in rank order") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const int cap = 2;  // values above the cap count as the cap: the op holds state
  auto min_location = [cap](const min_at& a, const min_at& b) {
    const int x = a.value < cap ? a.value : cap;
    const int y = b.value < cap ? b.value : cap;
    return y < x ? min_at{y, b.rank} : min_at{x, a.rank};  // ties: the lower rank
  };
  // Element i of rank r: value (r + i) % 3, so the minimum moves between ranks.
  std::vector<min_at> mine;
  for (int i = 0; i < size; ++i) mine.push_back({(rank + i) % 3, rank});
  auto expected = [&](int first, int last, int i) {
    min_at best{cap, first};
    for (int r = last; r >= first; --r) {
      const int v = (r + i) % 3 < cap ? (r + i) % 3 : cap;
      if (v <= best.value) best = {v, r};
    }
    return best;
  };
  auto at_root = comm.ireduce(send_buf(mine), op(min_location), root(0));
  auto before = comm.iexscan(send_buf(mine), op(min_location), recv_buf(std::vector<min_at>(size)));
  auto block = comm.ireduce_scatter_block(send_buf(mine), op(min_location), recv_count(1));
  const std::vector<min_at> reduced = at_root.wait();
  if (rank == 0)
    for (int i = 0; i < size; ++i) CHECK(reduced[i] == expected(0, size - 1, i));
  const std::vector<min_at> prefix = before.wait();
  if (rank > 0)
    for (int i = 0; i < size; ++i) CHECK(prefix[i] == expected(0, rank - 1, i));
  CHECK(block.wait() == std::vector<min_at>{expected(0, size - 1, rank)});
}

TEST_CASE("iallreduce and iscan with a capturing lambda moved in: checked after wait") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const int bonus = 100;
  const std::vector<int> mine{rank, 1};
  auto all = comm.iallreduce(send_buf(mine), op([bonus](int a, int b) { return a + b + bonus; }));
  auto prefix =
      comm.iscan_single(send_buf(rank), op([bonus](int a, int b) { return a + b + bonus; }));
  CHECK(all.wait() ==
        std::vector<int>{size * (size - 1) / 2 + bonus * (size - 1), size + bonus * (size - 1)});
  CHECK(prefix.wait() == rank * (rank + 1) / 2 + bonus * rank);
}

TEST_CASE("ireduce with a caller-owned std::function and a function pointer") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const std::function<long(long, long)> add = [](long a, long b) { return a + b; };
  auto at_root = comm.ireduce_single(send_buf(long{rank}), op(add), root(size - 1));
  long (*larger)(long, long) = [](long a, long b) { return a < b ? b : a; };
  auto maximum = comm.iallreduce_single(send_buf(long{rank}), op(larger, nampi::commutative));
  const long sum = at_root.wait();
  if (rank == size - 1) CHECK(sum == size * (size - 1) / 2);
  CHECK(maximum.wait() == size - 1);
}

#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT)
TEST_CASE("allreduce_init with a stateful op: one lease for all starts") {
  nampi::Communicator comm;
  const int size = comm.size();
  int offset = 0;                           // captured by reference: each start sees its value then
  nampi::detail::op_registry().free_all();  // so that this case creates its entry's op
  const auto creates = calls_of("MPI_Op_create");
  {
    auto reduction = comm.allreduce_single_init(
        send_buf(1), op([&offset](int a, int b) { return a + b + offset; }));
    for (int round = 0; round < 4; ++round) {
      offset = round;
      reduction.start();
      CHECK(reduction.wait() == size + round * (size - 1));
    }
  }
  // Entry 0 of the non-commutative table: one MPI_Op for all starts.
  CHECK(calls_of("MPI_Op_create") - creates == 1);
}
#endif

TEST_CASE("leases are released: more reductions than entries, in sequence and in flight") {
  nampi::Communicator comm;
  const int size = comm.size();
  const std::size_t entries = nampi::detail::op_table_size;
  for (std::size_t i = 0; i < 3 * entries; ++i) {
    const int k = static_cast<int>(i % 5);
    CHECK(comm.allreduce_single(send_buf(1), op([k](int a, int b) { return a + b + k; })) ==
          size + k * (size - 1));
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<int> ks(entries);
    auto add_k = [&ks](std::size_t i) { return [&ks, i](int a, int b) { return a + b + ks[i]; }; };
    using pending = decltype(comm.iallreduce_single(send_buf(1), op(add_k(0))));
    std::vector<pending> in_flight;
    in_flight.reserve(entries);
    for (std::size_t i = 0; i < entries; ++i) {
      ks[i] = static_cast<int>(i) + round;
      in_flight.push_back(comm.iallreduce_single(send_buf(1), op(add_k(i))));
    }
    // Every entry is leased: one more stateful reduction cannot start.
    CHECK_THROWS_AS((void)comm.iallreduce_single(send_buf(1), op(add_k(0))), nampi::usage_error);
    for (std::size_t i = 0; i < entries; ++i)
      CHECK(in_flight[i].wait() == size + ks[i] * (size - 1));
  }
  CHECK(comm.allreduce_single(send_buf(1), op([size](int a, int b) { return a + b + size; })) ==
        size + size * (size - 1));
}

// Last (doctest runs a file's cases in order): everything created is freed.
TEST_CASE("no MPI_Op leaks: creates equal frees once nampi frees its ops") {
  nampi::Communicator comm;
  CHECK(calls_of("MPI_Op_create") > 0);
  nampi::detail::op_registry().free_all();
  CHECK(calls_of("MPI_Op_create") == calls_of("MPI_Op_free"));
  // The caches were reset: a user op still works, and is created again.
  const auto creates = calls_of("MPI_Op_create");
  const int two = 2;
  CHECK(comm.allreduce_single(send_buf(1), op([two](int a, int b) { return a + b + two; })) ==
        comm.size() + two * (comm.size() - 1));
  CHECK(calls_of("MPI_Op_create") == creates + 1);
  nampi::detail::op_registry().free_all();
  CHECK(calls_of("MPI_Op_create") == calls_of("MPI_Op_free"));
}
