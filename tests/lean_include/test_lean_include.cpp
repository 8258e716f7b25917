// A program that includes only <nampi/communicator.hpp> and <nampi/environment.hpp>, as the
// README allows a unit that needs only a communicator's calls (a tenth of a second less to
// compile than <nampi/nampi.hpp>); built as lean_include/core with NAMPI_TEST_CORE_INCLUDE, it
// includes <nampi/core.hpp> and the header of each call family it calls (nampi/calls/<family>.hpp)
// instead. Built without the tests' precompiled header, which includes everything. Exits
// non-zero when a received value is wrong.
#if defined(NAMPI_TEST_CORE_INCLUDE)
#include <nampi/calls/allgather.hpp>
#include <nampi/calls/allgatherv.hpp>
#include <nampi/calls/allreduce.hpp>
#include <nampi/calls/allreduce_single.hpp>
#include <nampi/calls/bcast.hpp>
#include <nampi/calls/sendrecv.hpp>
#include <nampi/calls/split.hpp>
#include <nampi/core.hpp>
#else
#include <nampi/communicator.hpp>
#include <nampi/environment.hpp>
#endif

// nampi takes the few names it needs of the standard's heavier headers from their parts
// (nampi/detail/std_parts.hpp): in C++20 <algorithm> alone is a tenth of an include-only unit's
// compile (own_context.hpp once included it).
#if defined(__GLIBCXX__) && (defined(_GLIBCXX_ALGORITHM) || defined(_GLIBCXX_FUNCTIONAL) || \
                             defined(_GLIBCXX_MUTEX))
#error "nampi's headers include <algorithm>, <functional> or <mutex>: use nampi/detail/std_parts.hpp"
#endif

#include <cstdio>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok) {
      std::fprintf(stderr, "rank %d: %s\n", rank, what);
      ++failures;
    }
  };

  // Collectives, blocking and nonblocking: rank r contributes r + 1 copies of r.
  const std::vector<int> mine(static_cast<std::size_t>(rank) + 1, rank);
  auto check_gathered = [&](const std::vector<int>& all, const char* what) {
    std::size_t at = 0;
    bool gathered = all.size() == static_cast<std::size_t>(size) * (size + 1) / 2;
    for (int r = 0; gathered && r < size; ++r)
      for (int i = 0; i <= r; ++i) gathered = gathered && all[at++] == r;
    expect(gathered, what);
  };
  check_gathered(comm.allgatherv(send_buf(mine)), "allgatherv");
  auto gathering = comm.iallgatherv(send_buf(mine));
  check_gathered(gathering.wait(), "iallgatherv");
  expect(comm.allreduce_single(send_buf(rank), op(std::plus<>{})) == size * (size - 1) / 2,
         "allreduce_single");

  // Nonblocking: the result owns the receive buffer it returns at wait().
  const std::vector<int> own{rank};
  auto pending = comm.iallgather(send_buf(own));
  const std::vector<int> ranks = pending.wait();
  bool each = ranks.size() == static_cast<std::size_t>(size);
  for (int r = 0; each && r < size; ++r) each = ranks[static_cast<std::size_t>(r)] == r;
  expect(each, "iallgather");

#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT)  // MPI 4 (not Debian's Open MPI 4.1)
  // Persistent: set up once, started twice.
  std::vector<int> sums(1, 0);
  const std::vector<int> one{1};
  auto repeated = comm.allreduce_init(send_buf(one), recv_buf(sums), op(std::plus<>{}));
  for (int round = 0; round < 2; ++round) {
    repeated.start();
    repeated.wait();
    expect(sums[0] == size, "allreduce_init");
  }
#endif

  // The root's vector, its length known only there.
  std::vector<int> values = rank == 0 ? std::vector<int>{4, 5, 6} : std::vector<int>{};
  comm.bcast(send_recv_buf<nampi::resize_to_fit>(values));
  expect(values == std::vector<int>{4, 5, 6}, "bcast");

  // Point to point around a ring, and a communicator split by parity.
  const int next = (rank + 1) % size;
  const int previous = (rank + size - 1) % size;
  const std::vector<int> from_previous =
      comm.sendrecv(send_buf(std::vector<int>{rank}), dest(next), source(previous),
                    recv_count(1));
  expect(from_previous.size() == 1 && from_previous[0] == previous, "sendrecv");
  const auto half = comm.split(color(rank % 2));
  expect(half.size() == (size - rank % 2 + 1) / 2, "split");
  return failures == 0 ? 0 : 1;
}
