// A program that includes <nampi/core.hpp> and the header of each call family it calls
// (nampi/calls/<family>.hpp), as the README allows a unit that wants to compile only the calls it
// uses. Built without the tests' precompiled header, which includes everything. Exits non-zero
// when a received value is wrong.
#include <nampi/calls/allgatherv.hpp>
#include <nampi/calls/allreduce_single.hpp>
#include <nampi/calls/bcast.hpp>
#include <nampi/calls/sendrecv.hpp>
#include <nampi/calls/split.hpp>
#include <nampi/core.hpp>

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

  // A blocking and a nonblocking call of one family: rank r contributes r + 1 copies of r.
  const std::vector<int> mine(static_cast<std::size_t>(rank) + 1, rank);
  auto check_gathered = [&](const std::vector<int>& all, const char* what) {
    std::size_t at = 0;
    bool gathered = all.size() == static_cast<std::size_t>(size) * (size + 1) / 2;
    for (int r = 0; gathered && r < size; ++r)
      for (int i = 0; i <= r; ++i) gathered = gathered && all[at++] == r;
    expect(gathered, what);
  };
  check_gathered(comm.allgatherv(send_buf(mine)), "allgatherv");
  auto pending = comm.iallgatherv(send_buf(mine));
  check_gathered(pending.wait(), "iallgatherv");
  expect(comm.allreduce_single(send_buf(rank), op(std::plus<>{})) == size * (size - 1) / 2,
         "allreduce_single");

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
