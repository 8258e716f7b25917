// nampi's own messages never meet the program's (nampi/detail/own_context.hpp): range collectives,
// janus_sort and the sparse all-to-all run while the program has a wildcard receive pending
// (and an iprobe loop polling) on the same communicator, and while the program's messages
// with every tag nampi used to reserve on it (32000-32383, 32750-32767) are in flight; data and
// MPI calls checked. Collectives in flight at once on one range or on overlapping ranges give
// the right results in any order of completion, or are refused before they send.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <map>
#include <nampi/janus_sort.hpp>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sparse_alltoall.hpp>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "nampi_range_test_support.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

std::vector<int> iota(int n, int from = 0) {
  std::vector<int> out(static_cast<std::size_t>(n));
  std::iota(out.begin(), out.end(), from);
  return out;
}

int rounds_of(int size) {
  int rounds = 0;
  for (int d = 1; d < size; d *= 2) ++rounds;
  return rounds;
}

// Every collective of the range r (the whole world), blocking and nonblocking, with its data
// checked; the nonblocking one is driven by test() while the program polls its own
// communicator with a wildcard iprobe, which may find only the program's messages (on
// `program_tags`), nothing of nampi's.
void run_range_collectives(const nampi::Communicator& world, const nampi::RangeCommunicator& r,
                           const std::vector<int>& program_tags = {}) {
  const int me = r.rank();
  const int p = r.size();
  r.barrier();  // the process's first range collective asks MPI_TAG_UB once (MPI_Comm_get_attr)
  nampi_pmpi_reset();
  r.barrier();
  const int rounds = rounds_of(p);
  if (rounds > 0)
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Irecv", rounds}, {"MPI_Isend", rounds}, {"MPI_Waitall", rounds}});
  else
    CHECK(nampi_pmpi::snapshot().empty());
  CHECK(r.bcast_single(send_buf(me == p - 1 ? 42 : -1), root(p - 1)) == 42);
  CHECK(r.allreduce_single(send_buf(me + 1), op(std::plus<>{})) == p * (p + 1) / 2);
  const auto reduced = r.reduce(send_buf(std::vector<int>{me, 1}), op(std::plus<>{}), root(0));
  if (me == 0) CHECK(reduced == std::vector<int>{p * (p - 1) / 2, p});
  CHECK(r.scan_single(send_buf(1), op(std::plus<>{})) == me + 1);
  const int before = r.exscan_single(send_buf(1), op(std::plus<>{}));
  if (me > 0) CHECK(before == me);
  const auto gathered = r.gather(send_buf(std::vector<int>{me}), root(0));
  if (me == 0) CHECK(gathered == iota(p));
  CHECK(r.allgather(send_buf(std::vector<int>{me})) == iota(p));
  std::vector<int> expected;
  for (int i = 0; i < p; ++i) expected.insert(expected.end(), i + 1, i);
  CHECK(r.allgatherv(send_buf(std::vector<int>(me + 1, me))) == expected);
  const auto gatheredv = r.gatherv(send_buf(std::vector<int>(me + 1, me)), root(p - 1));
  if (me == p - 1) CHECK(gatheredv == expected);

  auto pending = r.iallreduce_single(send_buf(me + 1), op(std::plus<>{}));
  std::optional<int> sum;
  while (!sum) {
    MPI_Status status;
    if (world.iprobe(status_out(status)))  // any source, any tag: nothing of nampi's
      CHECK(std::find(program_tags.begin(), program_tags.end(), status.MPI_TAG) !=
            program_tags.end());
    sum = pending.test();
  }
  CHECK(*sum == p * (p + 1) / 2);
}

}  // namespace

TEST_CASE("isolation: range collectives while a wildcard receive is pending on the parent") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  nampi_pmpi_reset();
  auto r = world.range(first(0), last(size - 1));
  CHECK(nampi_pmpi::snapshot().empty());  // a range is made without an MPI call

  auto user = world.irecv<int>(recv_count(1), status_out());  // any source, any tag
  run_range_collectives(world, r);
  CHECK_FALSE(user.test());  // nampi's messages never matched it
  world.barrier();           // every rank is past its collectives

  // The program's own message completes it, with the tag the range collectives used to use.
  const int right = (rank + 1) % size;
  const int left = (rank - 1 + size) % size;
  world.send(send_buf(rank * 7 + 1), dest(right), tag(32754));
  auto [value, status] = user.wait();
  CHECK(value == std::vector<int>{left * 7 + 1});
  CHECK(status.MPI_SOURCE == left);
  CHECK(status.MPI_TAG == 32754);
}

TEST_CASE("isolation: the program's messages on nampi's former tags, in flight during nampi's") {
  using comm_type = nampi::BasicCommunicator<nampi::plugins::sparse_alltoall>;
  comm_type world;
  const int rank = world.rank();
  const int size = world.size();
  const int right = (rank + 1) % size;
  const int left = (rank - 1 + size) % size;
  std::vector<int> tags = iota(384, 32000);  // janus_sort's former tags
  for (int t = 32750; t <= 32767; ++t) tags.push_back(t);  // sparse all-to-all's, the ranges'
  auto value_of = [](int from, int t) { return from * 100000 + t; };

  // Sent, not received yet: a wildcard receive of nampi's own would take them.
  std::vector<MPI_Request> sends(tags.size());
  std::vector<int> values(tags.size());
  for (std::size_t i = 0; i < tags.size(); ++i) {
    values[i] = value_of(rank, tags[i]);
    MPI_Isend(&values[i], 1, MPI_INT, right, tags[i], MPI_COMM_WORLD, &sends[i]);
  }

  run_range_collectives(world, world.range(first(0), last(size - 1)), tags);

  std::vector<long> data(50);
  std::iota(data.begin(), data.end(), 0L);
  for (auto& x : data) x = (x * 7919 + rank * 31) % 1000;
  const long total = world.allreduce_single(send_buf(static_cast<long>(data.size())),
                                            op(std::plus<>{}));
  nampi::janus_sort(world, data);
  CHECK(std::is_sorted(data.begin(), data.end()));
  CHECK(world.allreduce_single(send_buf(static_cast<long>(data.size())), op(std::plus<>{})) ==
        total);

  std::unordered_map<int, std::vector<int>> outgoing{{right, {rank, 3 * rank}}};
  auto received = world.alltoallv_sparse(sparse_send_buf(outgoing));
  REQUIRE(received.size() == 1);
  CHECK(received[0].first == left);
  CHECK(received[0].second == std::vector<int>{left, 3 * left});

  // Every message of the program arrives, each on its own tag, none taken by nampi.
  for (const int t : tags) {
    auto [got, status] = world.recv<int>(source(left), tag(t), recv_count(1), status_out());
    CHECK(got == std::vector<int>{value_of(left, t)});
    CHECK(status.MPI_TAG == t);
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  world.barrier();
  CHECK_FALSE(world.iprobe());  // and nampi left nothing behind on the program's context
}

TEST_CASE("isolation: where the contexts come from; a communicator without one is refused") {
  nampi::Communicator world;
  const int size = world.size();
  REQUIRE(world.own_context() != nullptr);  // nampi::Environment made it
  CHECK(nampi::Communicator(MPI_COMM_WORLD).own_context() == world.own_context());

  // A communicator a nampi call creates gets one (one MPI_Comm_dup more); a view of it by its
  // MPI handle finds it (MPI_Comm_get_attr).
  nampi_pmpi_reset();
  auto split = world.split(color(0), key(world.rank()));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_dup", 1},
                                               {"MPI_Comm_rank", 1},
                                               {"MPI_Comm_set_attr", 1},
                                               {"MPI_Comm_size", 1},
                                               {"MPI_Comm_split", 1}});
  REQUIRE(split.own_context() != nullptr);
  CHECK(split.own_context() != world.own_context());
  const nampi::Communicator view(split.mpi_communicator());
  CHECK(view.own_context() == split.own_context());
  CHECK(view.range(first(0), last(size - 1)).allreduce_single(send_buf(1), op(std::plus<>{})) ==
        size);

  // idup's: started beside it (a second MPI_Comm_idup), attached when wait() returns it.
  nampi_pmpi_reset();
  auto copy = world.idup().wait();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_idup", 2},
                                               {"MPI_Comm_rank", 1},
                                               {"MPI_Comm_set_attr", 1},
                                               {"MPI_Comm_size", 1},
                                               {"MPI_Wait", 2}});
  REQUIRE(copy.own_context() != nullptr);
  CHECK(copy.range(first(0), last(size - 1)).allreduce_single(send_buf(2), op(std::plus<>{})) ==
        2 * size);
  {
    auto never_waited = world.idup();  // destroyed pending: both complete, both are freed
  }

  // One made without nampi has none: nampi's algorithms refuse it before sending anything.
  MPI_Comm raw = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw);
  {
    const nampi::Communicator bare(raw);
    CHECK(bare.own_context() == nullptr);
    auto r = bare.range(first(0), last(size - 1));  // fine: no message yet
    CHECK_THROWS_WITH_AS(r.allreduce_single(send_buf(1), op(std::plus<>{})),
                         doctest::Contains("allreduce_single: the communicator has no nampi "
                                           "context"),
                         nampi::usage_error);
    std::vector<int> data{3, 1, 2};
    CHECK_THROWS_WITH_AS(nampi::janus_sort(bare, data), doctest::Contains("janus_sort"),
                         nampi::usage_error);
  }
  MPI_Comm_free(&raw);
}

TEST_CASE("isolation: collectives in flight at once on one range and on overlapping ranges") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  auto all = world.range(first(0), last(size - 1));
  auto low = world.range(first(0), last(std::max(0, size - 2)));
  auto high = world.range(first(size / 2), last(size - 1));
  auto sum_of = [](const nampi::RangeCommunicator& r) {  // of (parent rank + 1) over r
    int sum = 0;
    for (int i = 0; i < r.size(); ++i) sum += r.parent_rank(i) + 1;
    return sum;
  };

  // Two on overlapping ranges, waited in the reverse order (issue 32's 3-rank case).
  {
    auto a = all.iallreduce_single(send_buf(rank + 1), op(std::plus<>{}));
    std::optional<decltype(a)> b;
    if (low.contains_me()) b.emplace(low.iallreduce_single(send_buf(rank + 1), op(std::plus<>{})));
    if (b) CHECK(b->wait() == sum_of(low));
    CHECK(a.wait() == sum_of(all));
  }
  // Three on three ranges, completed newest first, then by test() in turn.
  for (int order = 0; order < 2; ++order) {
    auto a = all.iallreduce_single(send_buf(rank + 1), op(std::plus<>{}));
    std::optional<decltype(a)> b, c;
    if (low.contains_me()) b.emplace(low.iallreduce_single(send_buf(rank + 1), op(std::plus<>{})));
    if (high.contains_me())
      c.emplace(high.iallreduce_single(send_buf(rank + 1), op(std::plus<>{})));
    if (order == 0) {
      if (c) CHECK(c->wait() == sum_of(high));
      if (b) CHECK(b->wait() == sum_of(low));
      CHECK(a.wait() == sum_of(all));
    } else {
      std::optional<int> ra, rb, rc;
      while (!ra || (b && !rb) || (c && !rc)) {
        if (c && !rc) rc = c->test();
        if (!ra) ra = a.test();
        if (b && !rb) rb = b->test();
      }
      CHECK(*ra == sum_of(all));
      if (b) CHECK(*rb == sum_of(low));
      if (c) CHECK(*rc == sum_of(high));
    }
  }
  // Three collectives on one range (distinct sequence numbers), waited in reverse order.
  {
    auto bcast = all.ibcast_single(send_buf(rank == 0 ? 17 : -1), root(0));
    auto sum = all.iallreduce_single(send_buf(rank + 1), op(std::plus<>{}));
    const std::vector<int> mine{rank};
    auto gathered = all.iallgather(send_buf(mine));
    CHECK(gathered.wait() == iota(size));
    CHECK(sum.wait() == size * (size + 1) / 2);
    CHECK(bcast.wait() == 17);
  }
}

TEST_CASE("isolation: two collectives that would share tags are refused before sending") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  // Two tags whose ranges (the whole world, each on its first collective) hash to the same
  // tag block: found the same way at every rank.
  const std::uint64_t slots = nampi::detail::collective_tag_slots();
  std::unordered_map<std::uint64_t, int> seen;
  int t1 = -1, t2 = -1;
  for (int t = 1 << 20; t2 < 0; ++t) {
    const nampi::detail::range_identity id{0, 1, size, t, false};
    const auto [at, fresh] = seen.emplace(nampi::detail::range_hash(id) % slots, t);
    if (!fresh) {
      t1 = at->second;
      t2 = t;
    }
  }
  auto r1 = world.range(first(0), last(size - 1), tag(t1));
  auto r2 = world.range(first(0), last(size - 1), tag(t2));
  auto a = r1.iallreduce_single(send_buf(rank + 1), op(std::plus<>{}));
  if (size > 1) {
    // Every rank is in both and refuses the second, so none sends it.
    CHECK_THROWS_WITH_AS(r2.iallreduce_single(send_buf(rank + 1), op(std::plus<>{})),
                         doctest::Contains("iallreduce_single on the range first 0"),
                         nampi::usage_error);
    CHECK(a.wait() == size * (size + 1) / 2);
  } else {
    // One process shares no messages with itself: both run.
    auto b = r2.iallreduce_single(send_buf(rank + 1), op(std::plus<>{}));
    CHECK(b.wait() == 1);
    CHECK(a.wait() == 1);
  }
  // Once the first completed, the second range runs (its refused call counted nothing).
  CHECK(r2.allreduce_single(send_buf(rank + 1), op(std::plus<>{})) == size * (size + 1) / 2);
}
