// Nonblocking calls on range communicators (nampi/detail/range/request.hpp): their results own the
// buffers as on a communicator, and their wait() and test() drive the algorithm. Checked:
// collectives on overlapping ranges in flight at once (each range with its own tag), results
// completed by test() loops and in another order than started, wildcard receives, a result
// destroyed while pending, errors at the start, and that only point-to-point (and local)
// MPI calls are issued.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <nampi/nampi.hpp>
#include <numeric>
#include <optional>
#include <vector>

#include "nampi_range_test_support.hpp"

using namespace nampi::params;

namespace {

using nampi_test::check_only_point_to_point;

// A non-commutative, associative op: concatenation of decimal digits.
struct digits {
  int operator()(int a, int b) const {
    int shift = 1;
    while (shift <= b) shift *= 10;
    return a * shift + b;
  }
};

// The digits 1..n concatenated: the scan of me + 1 over ranks 0..n-1.
int digits_up_to(int n) {
  int out = 0;
  for (int i = 1; i <= n; ++i) out = digits{}(out, i);
  return out;
}

// Drives a pending result by test() alone; the value once done.
template <typename Result>
auto by_test(Result& pending) {
  auto got = pending.test();
  while (!got) got = pending.test();
  return std::move(*got);
}

}  // namespace

TEST_CASE("range: a range's tag; sub-ranges keep it unless given one") {
  nampi::Communicator world;
  const int size = world.size();
  auto plain = world.range(first(0), last(size - 1));
  auto tagged = world.range(first(0), last(size - 1), tag(7));
  CHECK(plain.tag() == nampi::detail::range_handle::no_tag);
  CHECK(tagged.tag() == 7);
  CHECK(tagged.range(first(0), last(0)).tag() == 7);
  CHECK(tagged.range(first(0), last(0), tag(9)).tag() == 9);
  CHECK_THROWS_AS(world.range(first(0), last(0), tag(-3)), nampi::usage_error);
}

TEST_CASE("range: nonblocking collectives on overlapping ranges at once, one tag each") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  auto all = world.range(first(0), last(size - 1), tag(100));
  auto upper = world.range(first(size / 2), last(size - 1), tag(101));
  auto even = world.range(first(0), last(size - 1), stride(2), tag(102));
  auto all_again = world.range(first(0), last(size - 1), tag(103));  // a second one on `all`

  const std::vector<int> pair{rank, 1};
  const std::vector<int> block{rank * 3};
  nampi_pmpi_reset();
  auto sum = all.iallreduce(send_buf(pair), op(std::plus<>{}));
  std::optional<decltype(upper.ibcast(send_recv_buf(std::vector<int>{}), root(0)))> upper_bcast;
  if (upper.contains_me()) {
    std::vector<int> data(3, upper.rank() == 0 ? 42 : -1);
    upper_bcast.emplace(upper.ibcast(send_recv_buf(std::move(data)), root(0)));
  }
  std::optional<decltype(even.iscan_single(send_buf(0), op(digits{})))> even_scan;
  if (even.contains_me())
    even_scan.emplace(even.iscan_single(send_buf(even.rank() + 1), op(digits{})));
  auto gathered = all_again.iallgather(send_buf(block));

  // Completed in another order than started: the last one first, by test() alone.
  CHECK(by_test(gathered) == [&] {
    std::vector<int> all_ranks(size);
    for (int i = 0; i < size; ++i) all_ranks[i] = 3 * i;
    return all_ranks;
  }());
  if (even_scan) CHECK(even_scan->wait() == digits_up_to(even.rank() + 1));
  if (upper_bcast) CHECK(upper_bcast->wait() == std::vector<int>{42, 42, 42});
  CHECK(sum.wait() == std::vector<int>{size * (size - 1) / 2, size});
  check_only_point_to_point(nampi_pmpi::snapshot());
}

TEST_CASE("range: every nonblocking collective of a range against its blocking one") {
  nampi::Communicator world;
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(world.size())) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    if (r.contains_me()) {
      const int me = r.rank();
      const int top = r.size() - 1;
      const std::vector<int> mine{me, 2 * me + 1};
      std::vector<int> varying(static_cast<std::size_t>(me) + 1, me);
      // Collectives in flight at once on one set of processes: each on the range with a tag
      // of its own (O(1), no MPI call), as RBC asks.
      auto with_tag = [&](int t) { return r.range(first(0), last(top), tag(t)); };
      nampi_pmpi_reset();
      auto barrier = r.ibarrier();
      barrier.wait();
      auto bcast = with_tag(200).ibcast_single(send_buf(me * 11 + 1), root(top));
      auto reduce = with_tag(201).ireduce(send_buf(mine), op(std::plus<>{}), root(top));
      auto allreduce = with_tag(202).iallreduce_single(send_buf(me), op(nampi::ops::max<>{}));
      auto scan = with_tag(203).iscan_single(send_buf(me + 1), op(digits{}));
      auto exscan = with_tag(204).iexscan_single(send_buf(me + 1), op(digits{}));
      auto gather = with_tag(205).igather(send_buf(mine), root(0));
      auto gatherv = with_tag(206).igatherv(send_buf(varying), root(top));
      auto allgatherv = with_tag(207).iallgatherv(send_buf(varying));
      // Completed newest first: each one progresses only within its own wait().
      auto allgatherv_r = allgatherv.wait();
      auto gatherv_r = gatherv.wait();
      auto gather_r = gather.wait();
      auto exscan_r = exscan.wait();
      auto scan_r = scan.wait();
      auto allreduce_r = allreduce.wait();
      auto reduce_r = reduce.wait();
      auto bcast_r = bcast.wait();
      check_only_point_to_point(nampi_pmpi::snapshot());

      CHECK(bcast_r == top * 11 + 1);
      if (me == top)
        CHECK(reduce_r == std::vector<int>{top * (top + 1) / 2, (top + 1) * (top + 1)});
      CHECK(allreduce_r == top);
      CHECK(scan_r == digits_up_to(me + 1));
      if (me > 0) CHECK(exscan_r == digits_up_to(me));
      if (me == 0) {
        REQUIRE(gather_r.size() == 2 * static_cast<std::size_t>(r.size()));
        for (int i = 0; i < r.size(); ++i) {
          CHECK(gather_r[2 * i] == i);
          CHECK(gather_r[2 * i + 1] == 2 * i + 1);
        }
      }
      std::vector<int> expected;
      for (int i = 0; i < r.size(); ++i) expected.insert(expected.end(), i + 1, i);
      if (me == top) CHECK(gatherv_r == expected);
      CHECK(allgatherv_r == expected);
    }
    world.barrier();
  }
}

TEST_CASE("range: isend and irecv; a wildcard irecv completes by test() with the range rank") {
  nampi::Communicator world;
  for (const nampi_test::range_shape& s : nampi_test::range_shapes(world.size())) {
    CAPTURE(s.name);
    auto r = world.range(first(s.first), last(s.last), stride(s.stride));
    if (r.contains_me() && r.size() >= 2) {
      const int me = r.rank();
      const int right = (me + 1) % r.size();
      const int left = (me - 1 + r.size()) % r.size();
      nampi_pmpi_reset();
      auto incoming = r.irecv<int>(source(MPI_ANY_SOURCE), tag(3), recv_count(2), status_out());
      const std::vector<int> message{me, 5 * me};
      auto outgoing = r.isend(send_buf(message), dest(right), tag(3));
      auto [data, status] = by_test(incoming);
      outgoing.wait();
      check_only_point_to_point(nampi_pmpi::snapshot());
      CHECK(data == std::vector<int>{left, 5 * left});
      CHECK(status.MPI_SOURCE == left);
      CHECK(status.MPI_TAG == 3);
    }
    world.barrier();
  }
}

TEST_CASE("range: a pending result destroyed unread completes first; a bad root throws at once") {
  nampi::Communicator world;
  const int size = world.size();
  auto r = world.range(first(0), last(size - 1));
  {
    std::vector<int> data(4, r.rank() == 0 ? 9 : 0);
    auto pending = r.ibcast(send_recv_buf(std::move(data)), root(0));
    auto barrier = r.ibarrier();
  }  // both complete here, newest first
  auto after = r.allreduce_single(send_buf(1), op(std::plus<>{}));
  CHECK(after == size);
  CHECK_THROWS_AS(r.ibcast_single(send_buf(1), root(size)), nampi::mpi_error);
}

TEST_CASE("range: a strided datatype; a rank's own block copied without a message") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  auto r = world.range(first(0), last(size - 1));
  // Two ints two apart: one element of `pair` spans three ints (its extent).
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const std::vector<int> mine{rank, -1, 10 * rank};
  std::vector<int> all(3 * static_cast<std::size_t>(size), -7);
  nampi_pmpi_reset();
  r.iallgather(send_buf(mine), send_count(1), send_type(pair), recv_buf(all), recv_count(1),
               recv_type(pair))
      .wait();
  const auto calls = nampi_pmpi::snapshot();
  check_only_point_to_point(calls);
  CHECK(calls.count("MPI_Sendrecv") == 0);  // the own block: MPI_Pack and MPI_Unpack
  CHECK(calls.at("MPI_Pack") == 1);
  for (int i = 0; i < size; ++i) {
    CHECK(all[3 * i] == i);
    CHECK(all[3 * i + 1] == -7);  // the gap is left alone
    CHECK(all[3 * i + 2] == 10 * i);
  }
  MPI_Type_free(&pair);
}
