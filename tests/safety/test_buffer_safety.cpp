// Memory safety in a release build: built with -O2 -DNDEBUG and AddressSanitizer
// (tests/CMakeLists.txt), so a size nampi computes that is not checked shows up
// as a heap-buffer-overflow. Each case either throws nampi::usage_error before
// MPI writes (its message checked) or now gives the correct result.
//
// A check that needs remote data (an inferred count) runs after that data
// arrived, so a rank that throws there leaves its peers inside the next MPI
// call; those cases make every rank hit the error, or run on a duplicate of
// MPI_COMM_WORLD that absorbs the messages left unmatched.
#include <doctest/doctest.h>

#include <array>
#include <limits>
#include <nampi/nampi.hpp>
#include <span>
#include <string>
#include <vector>

#include "nampi_test_support.hpp"
#include "nampi_usage_error_check.hpp"

using namespace nampi::params;

#ifndef NDEBUG
#error "the safety tests check a release build: compile them with -DNDEBUG"
#endif
static_assert(NAMPI_ASSERTION_LEVEL == 0, "release build: checks of caller's values are off");

namespace {

// A duplicate of MPI_COMM_WORLD for one case that leaves messages unmatched. Never
// freed: MPI would reuse its context for the next duplicate, whose calls would then
// match those messages. (MPI_Finalize releases it.)
nampi::Communicator fresh_comm() {
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  return nampi::Communicator(dup);
}

struct two_ints {
  int a, b;
};

}  // namespace

TEST_CASE("recv: a probed size larger than the buffer throws; the message stays to be received") {
  nampi::Communicator comm;
  if (comm.size() < 2 || comm.rank() > 1) return;
  const std::vector<int> eight{1, 2, 3, 4, 5, 6, 7, 8};
  if (comm.rank() == 0) {
    for (int i = 0; i < 4; ++i) comm.send(send_buf(eight), dest(1), tag(i));
  } else {
    std::vector<int> two(2);
    CHECK_USAGE_ERROR(comm.recv(recv_buf(two), source(0), tag(0)),
                      "recv: 'recv_buf' holds 2 elements, 8 needed");
    std::array<int, 1> one{};
    CHECK_USAGE_ERROR(comm.recv(recv_buf(one), source(0), tag(1)),
                      "recv: 'recv_buf' holds 1 element, 8 needed");
    std::span<int> view(two);
    CHECK_USAGE_ERROR(comm.recv(recv_buf(view), source(0), tag(2)), "holds 2 elements, 8 needed");
    CHECK_USAGE_ERROR(comm.irecv(recv_buf(two), source(0), tag(3)),
                      "irecv: 'recv_buf' holds 2 elements, 8 needed");
    for (int i = 0; i < 4; ++i) CHECK(comm.recv<int>(source(0), tag(i)) == eight);  // nothing lost
  }
}

TEST_CASE(
    "fixed-size receive buffers (std::array, C array, std::span) too small: never written past") {
  nampi::Communicator comm;
  const std::vector<int> four{1, 2, 3, 4};
  std::array<int, 2> two{-1, -1};
  int c_two[2] = {-1, -1};
  CHECK_USAGE_ERROR(comm.allreduce(send_buf(four), recv_buf(two), op(std::plus<>{})),
                    "allreduce: 'recv_buf' holds 2 elements, 4 needed");
  CHECK_USAGE_ERROR(comm.iallreduce(send_buf(four), recv_buf(c_two), op(std::plus<>{})),
                    "iallreduce: 'recv_buf' holds 2 elements, 4 needed");
#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT)
  CHECK_USAGE_ERROR(comm.allreduce_init(send_buf(four), recv_buf(two), op(std::plus<>{})),
                    "allreduce_init: 'recv_buf' holds 2 elements, 4 needed");
#endif
  std::span<int> view(two);
  CHECK_USAGE_ERROR(comm.allgather(send_buf(four), recv_buf(view)),
                    "allgather: 'recv_buf' holds 2 elements");
  CHECK(two == std::array<int, 2>{-1, -1});
  CHECK(c_two[0] == -1);
  CHECK(c_two[1] == -1);
  if (comm.size() < 2 || comm.rank() > 1) return;
  if (comm.rank() == 0) {
    for (int i = 0; i < 2; ++i) comm.send(send_buf(four), dest(1), tag(i));
  } else {
    CHECK_USAGE_ERROR(comm.recv(recv_buf(two), source(0), tag(0)),
                      "recv: 'recv_buf' holds 2 elements, 4 needed");
    CHECK_USAGE_ERROR(comm.irecv(recv_buf(c_two), source(0), tag(1)),
                      "irecv: 'recv_buf' holds 2 elements, 4 needed");
    for (int i = 0; i < 2; ++i) CHECK(comm.recv<int>(source(0), tag(i)) == four);  // nothing lost
  }
}

TEST_CASE("recv: a datatype the caller gives sizes the buffer by its extent") {
  nampi::Communicator comm;
  if (comm.size() < 2 || comm.rank() > 1) return;
  // Every other int: 3 elements span 5 ints.
  const auto strided = nampi::datatype::vector(3, 1, 2, MPI_INT);
  if (comm.rank() == 0) {
    comm.send(send_buf(std::vector<int>{7, 8, 9}), dest(1));
  } else {
    std::vector<int> got = comm.recv<int>(source(0), recv_count(1), recv_type(strided));
    REQUIRE(got.size() == 5);
    CHECK(got[0] == 7);
    CHECK(got[2] == 8);
    CHECK(got[4] == 9);
  }
}

TEST_CASE("sendrecv: a too small receive buffer throws on every rank of the ring") {
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size(),
            left = (comm.rank() + comm.size() - 1) % comm.size();
  const std::vector<int> four(4, comm.rank());
  std::vector<int> two(2);
  CHECK_USAGE_ERROR(comm.sendrecv(send_buf(four), dest(right), source(left), recv_buf(two)),
                    "sendrecv: 'recv_buf' holds 2 elements, 4 needed");
  // The counts were exchanged, the data not: the ring is still in step.
  auto got = comm.sendrecv(send_buf(four), dest(right), source(left));
  CHECK(got == std::vector<int>(4, left));
}

TEST_CASE("allreduce: recv_buf given with its own element type and an explicit datatype") {
  nampi::Communicator comm;
  const std::vector<double> v(4, 1.5);
  std::vector<float> w(4);
  // One datatype serves both buffers: 4 doubles are 32 bytes, w holds 16.
  CHECK_USAGE_ERROR(
      comm.allreduce(send_buf(v), recv_buf(w), send_type(MPI_DOUBLE), op(std::plus<>{})),
      "allreduce: 'recv_buf' holds 4 elements, 8 needed");
  // op(std::plus<int>{}) on doubles is MPI_SUM on the doubles, not a sum of ints.
  auto sum = comm.allreduce(send_buf(v), op(std::plus<int>{}));
  CHECK(sum == std::vector<double>(4, 1.5 * comm.size()));
}

TEST_CASE("allgather: recv_type comes from recv_buf's own element type") {
  nampi::Communicator comm;
  const int r = comm.rank();
  const std::vector<int> in{r, 10 * r};
  std::vector<two_ints> out(static_cast<std::size_t>(comm.size()));
  comm.allgather(send_buf(in), recv_count(1), recv_buf(out));
  for (int i = 0; i < comm.size(); ++i) {
    CHECK(out[static_cast<std::size_t>(i)].a == i);
    CHECK(out[static_cast<std::size_t>(i)].b == 10 * i);
  }
}

TEST_CASE("bcast: a derived send_recv_type resizes receivers by its extent") {
  nampi::Communicator comm;
  // An int followed by a 4-byte hole: 2 elements span 12 bytes (3 ints).
  const auto padded = nampi::datatype::resized(MPI_INT, 0, 2 * sizeof(int));
  std::vector<int> buf = comm.rank() == 0 ? std::vector<int>{11, -1, 22, -1} : std::vector<int>{};
  comm.bcast(send_recv_buf(buf), send_recv_count(2), send_recv_type(padded));
  REQUIRE(buf.size() >= 3);
  CHECK(buf[0] == 11);
  CHECK(buf[2] == 22);
}

#if defined(NAMPI_HAVE_MPI_PSEND_INIT)
TEST_CASE("psend_init: partitions x count elements of a given datatype must fit the buffer") {
  nampi::Communicator comm;
  // 4 ints in 2 partitions: a count of 2 per partition, computed in ints; 2 x 2 elements of
  // the padded type span 7 ints (28 bytes) of the 16.
  const auto padded = nampi::datatype::resized(MPI_INT, 0, 2 * sizeof(int));
  std::vector<int> data(4, comm.rank());
  CHECK_USAGE_ERROR(
      comm.psend_init(send_buf(data), partitions(2), send_type(padded), dest(comm.rank()), tag(1)),
      "psend_init: 4 elements of 'send_type' span bytes [0, 28), but 'send_buf' "
      "holds 16 bytes");
}
#endif

TEST_CASE("bcast: a no_resize receiver smaller than the root's buffer throws") {
  auto comm = fresh_comm();  // the root's data is left unmatched
  if (comm.size() < 2) return;
  std::vector<int> buf = comm.rank() == 0 ? std::vector<int>(8, 3) : std::vector<int>(2);
  if (comm.rank() == 0)
    comm.bcast(send_recv_buf<nampi::no_resize>(buf));
  else
    CHECK_USAGE_ERROR(comm.bcast(send_recv_buf<nampi::no_resize>(buf)),
                      "bcast: 'send_recv_buf' holds 2 elements, 8 needed");
}

TEST_CASE("allgatherv: asked-back arrays longer than the ranks are read only that far") {
  nampi::Communicator comm;
  const std::vector<int> mine(static_cast<std::size_t>(comm.rank()) + 1, comm.rank());
  const std::size_t p = static_cast<std::size_t>(comm.size());
  std::vector<int> counts(p + 3, -5), displs(p + 3, 1000000);
  auto all = comm.allgatherv(send_buf(mine), recv_counts_out(counts), recv_displs_out(displs));
  CHECK(all == nampi_test::staircase(comm.size()));
  CHECK(std::vector<int>(counts.begin(), counts.begin() + static_cast<long>(p)) ==
        nampi_test::iota_counts(comm.size()));
  CHECK(counts[p] == -5);  // untouched
  std::vector<int> grown;
  comm.allgatherv(send_buf(mine), recv_buf<nampi::grow_only>(grown), recv_counts_out(counts));
  CHECK(grown.size() == nampi_test::staircase(comm.size()).size());
}

TEST_CASE("allgatherv: inferred counts into a too small buffer throw on every rank") {
  nampi::Communicator comm;
  const std::vector<int> mine(3, comm.rank());
  std::vector<int> small(2);
  CHECK_USAGE_ERROR(comm.allgatherv(send_buf(mine), recv_buf(small)),
                    "allgatherv: 'recv_buf' holds 2 elements");
  std::span<int> view(small);
  CHECK_USAGE_ERROR(comm.allgatherv(send_buf(mine), recv_buf(view)), "holds 2 elements");
}

TEST_CASE("alltoallv and gatherv: inferred counts into a too small buffer throw") {
  nampi::Communicator comm;
  const std::size_t p = static_cast<std::size_t>(comm.size());
  const std::vector<int> data(2 * p, comm.rank());
  std::vector<int> one(1);
  CHECK_USAGE_ERROR(
      comm.alltoallv(send_buf(data), send_counts(std::vector<int>(p, 2)), recv_buf(one)),
      "alltoallv: 'recv_buf' holds 1 element, " + std::to_string(2 * p) + " needed");
  auto fresh = fresh_comm();  // the root throws after the count gather: the data stays unmatched
  std::vector<int> at_root(fresh.rank() == 0 ? 1 : 0);
  if (fresh.rank() == 0)
    CHECK_USAGE_ERROR(fresh.gatherv(send_buf(data), recv_buf(at_root)),
                      "gatherv: 'recv_buf' holds 1 element");
  else
    fresh.gatherv(send_buf(data), recv_buf(at_root));
}

TEST_CASE("counts arrays shorter than the communicator throw before any MPI call") {
  nampi::Communicator comm;
  const std::size_t p = static_cast<std::size_t>(comm.size());
  const std::vector<int> short_counts(p - 1, 1);
  const std::vector<int> data(p, comm.rank());
  CHECK_USAGE_ERROR(comm.alltoallv(send_buf(data), send_counts(short_counts)),
                    "alltoallv: 'send_counts' holds " + std::to_string(p - 1));
  CHECK_USAGE_ERROR(comm.allgatherv(send_buf(data), recv_counts(short_counts)),
                    "allgatherv: 'recv_counts' holds " + std::to_string(p - 1));
  // gatherv reads recv_counts at the root only: every rank is the root once.
  for (int root_rank = 0; root_rank < comm.size(); ++root_rank) {
    std::vector<int> got(p);
    if (comm.rank() == root_rank)
      CHECK_USAGE_ERROR(comm.gatherv(send_buf(data), send_count(1), recv_counts(short_counts),
                                     recv_buf(got), root(root_rank)),
                        "gatherv: 'recv_counts' holds");
  }
  // A negative count makes the displacements nampi scans from the counts negative: rejected.
  if (p >= 2) {
    std::vector<int> negative(p, 1);
    negative[0] = -1;
    CHECK_USAGE_ERROR(comm.allgatherv(send_buf(data), recv_counts(negative)),
                      "allgatherv: 'recv_counts' holds a negative count");
    // Also where every prefix stays non-negative: {3, -2, ...} scans to {0, 3, 1, ...}, and
    // the buffer sized from the last block would be too small for the first.
    std::vector<int> hidden(p, 1);
    hidden[0] = 3;
    hidden[1] = -2;
    CHECK_USAGE_ERROR(comm.allgatherv(send_buf(data), recv_counts(hidden)),
                      "allgatherv: 'recv_counts' holds a negative count");
    CHECK_USAGE_ERROR(comm.alltoallv(send_buf(data), send_counts(hidden)),
                      "alltoallv: 'send_counts' holds a negative count");
  }
  if (p >= 3) {  // the third block starts at 2 * INT_MAX, beyond an int displacement
    const std::vector<int> huge(p, std::numeric_limits<int>::max());
    CHECK_USAGE_ERROR(comm.allgatherv(send_buf(data), recv_counts(huge)),
                      "does not fit the displacements' type");
  }
  // Longer arrays are fine and read only one entry per rank.
  std::vector<int> long_counts(p + 2, 1);
  long_counts[p] = 1000;
  auto all = comm.allgatherv(send_buf(std::vector<int>{comm.rank()}), recv_counts(long_counts));
  CHECK(all.size() == p);
}

TEST_CASE("in place: send_recv_buf's resize policy is honoured") {
  nampi::Communicator comm;
  const std::size_t p = static_cast<std::size_t>(comm.size());
  const auto r = static_cast<std::size_t>(comm.rank());
  std::vector<int> v(2 * p + 3, -1);
  v[2 * r] = v[2 * r + 1] = comm.rank();
  comm.allgather(send_recv_buf<nampi::resize_to_fit>(v), recv_count(2));
  CHECK(v == nampi_test::repeat_each(comm.size(), 2));
  std::vector<int> small(1, comm.rank());
  CHECK_USAGE_ERROR(
      comm.allgather(send_recv_buf(small), recv_count(2)),
      "allgather: 'send_recv_buf' holds 1 element, " + std::to_string(2 * p) + " needed");
  std::vector<int> x{comm.rank()};
  comm.allreduce(send_recv_buf<nampi::resize_to_fit>(x), send_recv_count(1), op(std::plus<>{}));
  CHECK(x.size() == 1);
  CHECK(x[0] == comm.size() * (comm.size() - 1) / 2);
}

TEST_CASE("values that mean something at the root only are left untouched elsewhere") {
  nampi::Communicator comm;
  const std::size_t p = static_cast<std::size_t>(comm.size());
  const bool at_root = comm.rank() == 0;
  std::vector<int> data(at_root ? 2 * p : 0, 5);
  int count = -7;
  auto mine = comm.scatter(send_buf(data), send_count_out(count), recv_count(2));
  CHECK(mine == std::vector<int>{5, 5});
  CHECK(count == (at_root ? 2 : -7));
  std::vector<int> counts(p, -1);
  comm.gatherv(send_buf(std::vector<int>{comm.rank()}), recv_counts_out(counts));
  CHECK(counts == (at_root ? std::vector<int>(p, 1) : std::vector<int>(p, -1)));
  int recv_count_back = -7;
  auto gathered =
      comm.gather(send_buf(std::vector<int>(2, comm.rank())), recv_count_out(recv_count_back));
  CHECK(gathered == (at_root ? nampi_test::repeat_each(comm.size(), 2) : std::vector<int>{}));
  CHECK(recv_count_back == (at_root ? 2 : -7));
}

TEST_CASE("single values: room for one value") {
  nampi::Communicator comm;
  int one = 0;
  if (comm.size() > 1)
    CHECK_USAGE_ERROR(
        comm.allgather_single(send_buf(comm.rank()), recv_buf(one)),
        "allgather_single: 'recv_buf' holds one value, " + std::to_string(comm.size()) + " needed");
}
