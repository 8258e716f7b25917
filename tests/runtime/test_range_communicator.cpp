// Range communicators (nampi/range_communicator.hpp): made without MPI calls, the same named
// calls as a communicator, run as point-to-point messages on the parent. Each collective is
// checked against MPI's own on a communicator of the same processes, on the whole world, a
// half, a strided range and two overlapping ranges, and the MPI calls it issues are checked
// to be point-to-point (and local) calls only.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_range_test_support.hpp"

using namespace nampi::params;

namespace {

using nampi_test::check_only_point_to_point;

// The processes of the range as an MPI communicator (MPI_Comm_split), to compare with.
nampi::OwnedCommunicator same_processes(const nampi::Communicator& world,
                                        const nampi_test::range_shape& s) {
  const int r = world.rank();
  const bool in = r >= s.first && r <= s.last && (r - s.first) % s.stride == 0;
  return world.split(color(in ? 0 : MPI_UNDEFINED), key(r));
}

// A non-commutative, associative op: concatenation of decimal digits.
struct digits {
  int operator()(int a, int b) const {
    int shift = 1;
    while (shift <= b) shift *= 10;
    return a * shift + b;
  }
};

}  // namespace

TEST_CASE("range: made in O(1) without any MPI call; ranks, sizes and sub-ranges") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  nampi_pmpi_reset();
  auto all = world.range(first(0), last(size - 1));
  auto upper = world.range(first(size / 2), last(size - 1));
  auto even = world.range(first(0), last(size - 1), stride(2));
  auto nested = all.range(first(0), last(all.size() - 1), stride(2));
  CHECK(nampi_pmpi::snapshot().empty());

  CHECK(all.size() == size);
  CHECK(all.rank() == rank);
  CHECK(upper.size() == size - size / 2);
  CHECK(upper.rank() == (rank >= size / 2 ? rank - size / 2 : MPI_UNDEFINED));
  CHECK(even.size() == (size + 1) / 2);
  CHECK(even.rank() == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED));
  CHECK(nested.size() == even.size());
  CHECK(nested.rank() == even.rank());
  CHECK(even.parent_rank(even.size() - 1) == 2 * ((size + 1) / 2 - 1));
  CHECK(even.contains_me() == (rank % 2 == 0));

  CHECK_THROWS_AS(world.range(first(1), last(0)), nampi::usage_error);
  CHECK_THROWS_AS(world.range(first(0), last(size)), nampi::usage_error);
  CHECK_THROWS_AS(world.range(first(0), last(0), stride(0)), nampi::usage_error);
  if (!upper.contains_me()) CHECK_THROWS_AS(upper.barrier(), nampi::usage_error);
}

TEST_CASE("range: point-to-point with range ranks; a wildcard source reports the range rank") {
  nampi::Communicator world;
  const int size = world.size();
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(size)) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    if (!r.contains_me() || r.size() < 2) continue;
    const int me = r.rank();
    const int right = (me + 1) % r.size();
    const int left = (me - 1 + r.size()) % r.size();
    nampi_pmpi_reset();
    // Ring: a send to the right (buffered by isend so that no rank waits on its own send).
    auto sent = r.sendrecv(send_buf(std::vector<int>{me, 10 * me}), dest(right), source(left));
    CHECK(sent == std::vector<int>{left, 10 * left});
    if (me == 0) {
      for (int from = 1; from < r.size(); ++from) {
        MPI_Status status;
        auto got = r.recv<int>(source(MPI_ANY_SOURCE), tag(5), status_out(status));
        CHECK(got == std::vector<int>{status.MPI_SOURCE * 7});
        CHECK(status.MPI_SOURCE >= 1);
        CHECK(status.MPI_SOURCE < r.size());
      }
    } else {
      r.send(send_buf(std::vector<int>{me * 7}), dest(0), tag(5));
    }
    r.barrier();
    check_only_point_to_point(nampi_pmpi::snapshot());
  }
}

TEST_CASE("range: collectives give what MPI's give on the same processes") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(size)) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    nampi::OwnedCommunicator c = same_processes(world, s);
    if (!r.contains_me()) {
      CHECK(c.is_null());
      continue;
    }
    const int me = r.rank();
    const int n = r.size();
    REQUIRE(c.rank() == me);
    const std::vector<int> mine{me + 1, 2 * me + 3, rank};
    const int top = n - 1;

    nampi_pmpi_reset();
    r.barrier();
    auto bcast_r = r.bcast_single(send_buf(me * 11 + 1), root(top));
    std::vector<int> bcast_buf = me == top ? mine : std::vector<int>{};
    r.bcast(send_recv_buf(bcast_buf), root(top));  // receivers are resized to the root's
    auto reduce_r = r.reduce(send_buf(mine), op(std::plus<>{}), root(top));
    auto allreduce_r = r.allreduce(send_buf(mine), op(std::plus<>{}));
    auto max_r = r.allreduce_single(send_buf(me), op(nampi::ops::max<>{}));
    auto scan_r = r.scan_single(send_buf(me + 1), op(digits{}));
    auto scan_vec_r = r.scan(send_buf(mine), op(std::plus<>{}));
    auto exscan_r = r.exscan_single(send_buf(me + 1), op(digits{}));
    auto reduce_digits_r = r.reduce_single(send_buf(me + 1), op(digits{}), root(0));
    auto gather_r = r.gather(send_buf(mine), root(top));
    const std::vector<int> varying(static_cast<std::size_t>(me) + 1, me);
    auto gatherv_r = r.gatherv(send_buf(varying), root(0));
    auto allgather_r = r.allgather(send_buf(mine));
    auto allgatherv_r = r.allgatherv(send_buf(varying));
    check_only_point_to_point(nampi_pmpi::snapshot());

    CHECK(bcast_r == c.bcast_single(send_buf(me * 11 + 1), root(top)));
    CHECK(bcast_buf == std::vector<int>{top + 1, 2 * top + 3, r.parent_rank(top)});
    if (me == top)
      CHECK(reduce_r == c.reduce(send_buf(mine), op(std::plus<>{}), root(top)));
    else
      c.reduce(send_buf(mine), op(std::plus<>{}), root(top));
    CHECK(allreduce_r == c.allreduce(send_buf(mine), op(std::plus<>{})));
    CHECK(max_r == n - 1);
    CHECK(scan_r == c.scan_single(send_buf(me + 1), op(digits{})));
    CHECK(scan_vec_r == c.scan(send_buf(mine), op(std::plus<>{})));
    const int exscan_c = c.exscan_single(send_buf(me + 1), op(digits{}));
    if (me > 0) CHECK(exscan_r == exscan_c);
    const int reduce_digits_c = c.reduce_single(send_buf(me + 1), op(digits{}), root(0));
    if (me == 0) CHECK(reduce_digits_r == reduce_digits_c);
    const auto gather_c = c.gather(send_buf(mine), root(top));
    if (me == top) CHECK(gather_r == gather_c);
    const auto gatherv_c = c.gatherv(send_buf(varying), root(0));
    if (me == 0) CHECK(gatherv_r == gatherv_c);
    CHECK(allgather_r == c.allgather(send_buf(mine)));
    CHECK(allgatherv_r == c.allgatherv(send_buf(varying)));
  }
}

TEST_CASE("range: a predefined datatype's extents and size are asked of MPI once, not per call") {
  nampi::Communicator world;
  auto all = world.range(first(0), last(world.size() - 1));
  const std::vector<double> mine{1.0 * all.rank(), 2.0};
  (void)all.scan(send_buf(mine), op(std::plus<>{}));  // the first use may ask
  nampi_pmpi_reset();
  const auto scanned = all.scan(send_buf(mine), op(std::plus<>{}));
  const auto summed = all.allreduce(send_buf(mine), op(std::plus<>{}));
  const int ex = all.exscan_single(send_buf(all.rank() + 1), op(std::plus<>{}));
  const auto calls = nampi_pmpi::snapshot();
  for (const char* query :
       {"MPI_Type_get_extent", "MPI_Type_get_true_extent", "MPI_Type_size_x", "MPI_Type_size"}) {
    INFO(query);
    CHECK(calls.count(query) == 0);
  }
  const double below = all.rank() * (all.rank() + 1) / 2.0;
  CHECK(scanned == std::vector<double>{below, 2.0 * (all.rank() + 1)});
  const double n = all.size();
  CHECK(summed == std::vector<double>{n * (n - 1) / 2, 2 * n});
  if (all.rank() > 0) CHECK(ex == all.rank() * (all.rank() + 1) / 2);
}

TEST_CASE(
    "range: a derived datatype is asked once, and again when a freed handle names another type") {
  nampi::Communicator world;
  auto all = world.range(first(0), last(world.size() - 1));
  const int n = all.size();
  const int me = all.rank();
  // Two ints in a row: dense.
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const std::vector<int> mine{me, me + 100};
  std::vector<int> got(2 * static_cast<std::size_t>(n), -1);
  for (int round = 0; round < 2; ++round) {
    nampi_pmpi_reset();
    all.allgather(send_buf(mine), send_count(1), send_type(pair), recv_buf(got), recv_count(1),
                  recv_type(pair));
    const auto calls = nampi_pmpi::snapshot();
    // The first call asks MPI for the facts (MPI_Type_size_x is asked for them alone; the
    // typed layer's buffer checks ask for the extents too) and keeps them on the type, once;
    // the second finds them there.
    const auto count_of = [&](const char* f) { return calls.count(f) ? calls.at(f) : 0ULL; };
    INFO("call " << round + 1 << " with the same derived type");
    CHECK(count_of("MPI_Type_size_x") == (round == 0 ? 1U : 0U));
    CHECK(count_of("MPI_Type_set_attr") == (round == 0 ? 1U : 0U));
    CHECK(count_of("MPI_Type_get_attr") >= 1U);
    for (int k = 0; k < n; ++k) {
      CHECK(got[2 * static_cast<std::size_t>(k)] == k);
      CHECK(got[2 * static_cast<std::size_t>(k) + 1] == k + 100);
    }
  }
  MPI_Type_free(&pair);
  // One int every two ints: not dense. MPI may give it the freed type's handle; facts kept
  // from `pair` would copy this rank's own block as 8 dense bytes and overwrite the gap.
  MPI_Datatype spaced = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spaced);
  MPI_Type_commit(&spaced);
  const std::vector<int> one{me, -7};
  std::vector<int> gaps(2 * static_cast<std::size_t>(n), -1);
  all.allgather(send_buf(one), send_count(1), send_type(spaced), recv_buf(gaps), recv_count(1),
                recv_type(spaced));
  for (int k = 0; k < n; ++k) {
    CHECK(gaps[2 * static_cast<std::size_t>(k)] == k);
    CHECK(gaps[2 * static_cast<std::size_t>(k) + 1] == -1);  // the gap is left alone
  }
  MPI_Type_free(&spaced);
}

TEST_CASE("range: a large broadcast (children one after another) reaches every rank") {
  nampi::Communicator world;
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(world.size())) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    if (!r.contains_me()) continue;
    const int root_rank = r.size() / 2;
    std::vector<double> data(5000, -1.0);  // 40,000 bytes: above bcast_one_by_one_bytes
    if (r.rank() == root_rank)
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i) + 0.5;
    r.bcast(send_recv_buf(data), root(root_rank));
    CHECK(data.size() == 5000);
    bool all_right = true;
    for (std::size_t i = 0; i < data.size(); ++i) all_right = all_right && data[i] == i + 0.5;
    CHECK(all_right);
    auto pending = r.ibcast(send_recv_buf(data), root(0));  // nonblocking: the same algorithm
    pending.wait();
    CHECK(data.back() == 4999.5);
  }
}

TEST_CASE("range: allgather doubles for small blocks and passes large ones round a ring") {
  nampi::Communicator world;
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(world.size())) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    if (!r.contains_me()) continue;
    const int p = r.size(), me = r.rank();
    int doubling_rounds = 0;
    for (int d = 1; d < p; d *= 2) ++doubling_rounds;
    auto value = [](int rank, std::size_t i) {
      return rank * 1000003 + static_cast<int>(i % 1000);
    };
    // n elements from each rank (allgather), and me + n from rank me (allgatherv).
    for (const std::size_t n : {std::size_t{3}, std::size_t{70000}}) {
      CAPTURE(n);
      // 70,000 ints from each of two or more ranks: 560,000 bytes or more, past the 512 KiB
      // from which it takes the ring (p - 1 rounds) instead of doubling (ceil(log2 p)).
      const bool ring = n * sizeof(int) * static_cast<std::size_t>(p) >= 512 * 1024;
      std::vector<int> mine(n);
      for (std::size_t i = 0; i < n; ++i) mine[i] = value(me, i);
      r.barrier();
      nampi_pmpi_reset();
      const auto all = r.allgather(send_buf(mine));
      const auto calls = nampi_pmpi::snapshot();
      REQUIRE(all.size() == n * static_cast<std::size_t>(p));
      bool right = true;
      for (int k = 0; k < p; ++k)
        for (std::size_t i = 0; i < n; ++i)
          right = right && all[static_cast<std::size_t>(k) * n + i] == value(k, i);
      CHECK(right);
      const int rounds = ring ? p - 1 : doubling_rounds;
      CHECK(calls.count("MPI_Waitall") == (rounds > 0 ? 1 : 0));
      if (rounds > 0) CHECK(calls.at("MPI_Waitall") == static_cast<std::size_t>(rounds));
      // The ring sends one block per round; doubling sends the blocks it holds that lie one
      // after another in recv as one message: two where they wrap from rank p - 1 to rank 0.
      int sends = 0;
      if (ring)
        sends = p - 1;
      else
        for (int d = 1; d < p; d *= 2) sends += me + std::min(d, p - d) > p ? 2 : 1;
      CHECK(calls.count("MPI_Isend") == (sends > 0 ? 1 : 0));
      if (sends > 0) CHECK(calls.at("MPI_Isend") == static_cast<std::size_t>(sends));
      // Varying blocks, received in place at their offsets.
      std::vector<int> varying(n + static_cast<std::size_t>(me));
      for (std::size_t i = 0; i < varying.size(); ++i) varying[i] = value(me, i);
      const auto allv = r.allgatherv(send_buf(varying));
      std::size_t at = 0;
      bool right_v = true;
      for (int k = 0; k < p; ++k)
        for (std::size_t i = 0; i < n + static_cast<std::size_t>(k); ++i)
          right_v = right_v && at < allv.size() && allv[at++] == value(k, i);
      CHECK(right_v);
      CHECK(at == allv.size());
      // Offsets of each rank's own (MPI lets them differ between ranks): rank me leaves me
      // unused elements before each block.
      std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
      int next_at = 0;
      for (int k = 0; k < p; ++k) {
        counts[static_cast<std::size_t>(k)] = static_cast<int>(n) + k;
        displs[static_cast<std::size_t>(k)] = next_at + me;
        next_at += me + static_cast<int>(n) + k;
      }
      std::vector<int> spaced(static_cast<std::size_t>(next_at), -7);
      r.allgatherv(send_buf(varying), recv_counts(counts), recv_displs(displs), recv_buf(spaced));
      bool right_spaced = true;
      for (int k = 0; k < p; ++k)
        for (int i = 0; i < counts[static_cast<std::size_t>(k)]; ++i)
          right_spaced =
              right_spaced &&
              spaced[static_cast<std::size_t>(displs[static_cast<std::size_t>(k)] + i)] ==
                  value(k, static_cast<std::size_t>(i));
      CHECK(right_spaced);
    }
  }
}

TEST_CASE("range round: more than four messages at once (the requests move to the heap)") {
  // Six messages to itself on MPI_COMM_SELF, posted in one round, then completed together.
  nampi::detail::range_round round(MPI_COMM_SELF);
  const int out[3] = {11, 22, 33};
  int in[3] = {-1, -1, -1};
  MPI_Status status;
  for (int k = 0; k < 3; ++k) {
    round.recv(&in[k], 1, MPI_INT, 0, 70 + k, k == 2 ? &status : MPI_STATUS_IGNORE);
    round.send(&out[k], 1, MPI_INT, 0, 70 + k);
  }
  CHECK(round.size() == 6);
  CHECK(round.complete(true));
  CHECK(in[0] == 11);
  CHECK(in[1] == 22);
  CHECK(in[2] == 33);
  CHECK(status.MPI_TAG == 72);  // the status of the receive that asked for it
  CHECK(round.size() == 0);
  // Reused afterwards: in place again.
  int again = -1;
  round.recv(&again, 1, MPI_INT, 0, 80);
  round.send(&out[0], 1, MPI_INT, 0, 80);
  CHECK(round.complete(true));
  CHECK(again == 11);
}
