// One-sided communication as programs use it: nampi::Window<T> from comm.win_allocate<T>()
// and comm.win_create(base(v)), data moved by put / get / accumulate / fetch_and_op /
// compare_and_swap / rget, inside the scoped epochs of nampi/window_epochs.hpp (fence, lock,
// lock_all, post/start), the received values checked; and what misuse and MPI errors give.

// ctest-labels: ranks8
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <nampi/nampi.hpp>
#include <nampi/window.hpp>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

using namespace nampi::params;

namespace {

// Whether this MPI itself puts right: every rank puts with plain MPI (`plain_put(value, right)`,
// its own epoch) into cell 0 of its right neighbour's part of `win`, and every cell 0 is
// checked. Debian's MPICH 4.0.2 (ch4:ucx) misplaces some puts: in post/start epochs, and
// after an MPI error on the window (a plain C program shows both; MPICH 5 and Open MPI do
// not). nampi can only be as right as its MPI, so a test checks nampi's put only where this
// holds.
template <typename PlainPut>
bool mpi_puts_land(const nampi::Communicator& comm, nampi::Window<int>& win, PlainPut plain_put) {
  const int rank = comm.rank(), size = comm.size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  win.local()[0] = -1;
  comm.barrier();
  plain_put(-rank - 10, right);
  const int landed = win.local()[0] == -left - 10 ? 1 : 0;
  return comm.allreduce_single(send_buf(landed), op(std::plus<>{})) == size;
}

}  // namespace

TEST_CASE("windows: a ring halo by put in fence epochs") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  // Each rank owns 4 cells and a ghost cell at each end: [ghost_left, 4 cells, ghost_right].
  auto win = comm.win_allocate<double>(nampi::params::size(6));
  CHECK(win.local().size() == 6u);
  std::iota(win.local().begin(), win.local().end(), 100.0 * rank);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const double first = win.local()[1], last = win.local()[4];
  {
    auto epoch = win.fence_epoch();
    win.put(origin_buf(first), target_rank(left), target_disp(5));  // my first: left's right ghost
    win.put(origin_buf(last), target_rank(right), target_disp(0));  // my last: right's left ghost
  }
  CHECK(win.local()[0] == 100.0 * left + 4);
  CHECK(win.local()[5] == 100.0 * right + 1);
}

TEST_CASE("windows: a counter at rank 0 by fetch_and_op in lock epochs hands out unique tickets") {
  nampi::Communicator comm;
  const int size = comm.size();
  auto win = comm.win_allocate<long>(nampi::params::size(comm.rank() == 0 ? 1 : 0));
  if (comm.rank() == 0) win.local()[0] = 0;
  comm.barrier();
  std::vector<long> tickets;
  for (int round = 0; round < 3; ++round) {
    const long one = 1;
    long ticket = -1;
    {
      auto epoch = win.lock_epoch(target_rank(0));
      win.fetch_and_op(origin_buf(one), result_buf(ticket), target_rank(0), op(std::plus<>{}));
    }
    tickets.push_back(ticket);
  }
  const std::vector<long> all = comm.allgatherv(send_buf(tickets));
  CHECK(std::set<long>(all.begin(), all.end()).size() == static_cast<std::size_t>(3 * size));
  CHECK(*std::max_element(all.begin(), all.end()) == 3 * size - 1);
  comm.barrier();
  if (comm.rank() == 0) {
    auto epoch = win.lock_epoch(target_rank(0), lock_type(MPI_LOCK_SHARED));
    long now = -1;
    win.get(origin_buf(now), target_rank(0));
    epoch.end();
    CHECK(now == 3 * size);
  }
}

TEST_CASE("windows: win_create over a vector; get and rget in a lock_all epoch") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  std::vector<int> memory(5);
  std::iota(memory.begin(), memory.end(), 10 * rank);
  auto win = comm.win_create(base(memory));
  CHECK(win.local().data() == memory.data());
  CHECK(win.local().size() == memory.size());
  comm.barrier();
  const int right = (rank + 1) % size;
  std::vector<int> middle(3, -1);
  std::vector<int> moved_back;
  {
    auto epoch = win.lock_all_epoch();
    win.get(origin_buf(middle), target_rank(right), target_disp(1));
    // rget: the result owns the buffer moved in and hands it back, filled, from wait().
    moved_back =
        win.rget(origin_buf(std::vector<int>(2, -1)), target_rank(right), target_disp(3)).wait();
  }
  CHECK(middle == std::vector<int>{10 * right + 1, 10 * right + 2, 10 * right + 3});
  CHECK(moved_back == std::vector<int>{10 * right + 3, 10 * right + 4});
}

TEST_CASE("windows: accumulate and compare_and_swap; post/start epochs between neighbours") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  auto win = comm.win_allocate<int>(nampi::params::size(2));
  win.local()[0] = 0;
  win.local()[1] = -1;
  comm.barrier();
  {
    auto epoch = win.lock_all_epoch();
    const std::vector<int> mine{rank + 1};
    win.accumulate(origin_buf(mine), target_rank(0), op(std::plus<>{}));
    const int empty = -1;
    int before = 0;
    win.compare_and_swap(origin_buf(rank), compare_buf(empty), result_buf(before), target_rank(0),
                         target_disp(1));
    win.flush(target_rank(0));
    const int winners = before == -1 ? 1 : 0;
    CHECK(comm.allreduce_single(send_buf(winners), op(std::plus<>{})) == 1);
  }
  comm.barrier();
  if (rank == 0) {
    CHECK(win.local()[0] == size * (size + 1) / 2);
    CHECK((win.local()[1] >= 0 && win.local()[1] < size));
  }

  // Generalized active target: each rank exposes its window to its left neighbour, which
  // writes its rank there.
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const nampi::group comm_group = comm.group();
  const nampi::group from_left = comm_group.incl(std::vector<int>{left});
  const nampi::group to_right = comm_group.incl(std::vector<int>{right});
  const bool mpi_pscw_works = mpi_puts_land(comm, win, [&](int value, int target) {
    MPI_Win_post(from_left.mpi_group(), 0, win.mpi_window());
    MPI_Win_start(to_right.mpi_group(), 0, win.mpi_window());
    MPI_Put(&value, 1, MPI_INT, target, 0, 1, MPI_INT, win.mpi_window());
    MPI_Win_complete(win.mpi_window());
    MPI_Win_wait(win.mpi_window());
  });
  {
    auto exposure = win.exposure_epoch(group(from_left));
    {
      auto access = win.access_epoch(group(to_right));
      win.put(origin_buf(rank), target_rank(right));
    }
  }
  if (mpi_pscw_works)
    CHECK(win.local()[0] == left);
  else
    MESSAGE("this MPI's own post/start/put/complete/wait delivers to the wrong rank: not checked");
}

TEST_CASE("windows: a shared-memory window; another rank's part by shared_query") {
  nampi::Communicator comm;
  auto node = comm.split_type();  // the ranks that share memory: all of them here
  auto win = node.win_allocate_shared<int>(nampi::params::size(2));
  win.local()[0] = 7 * node.rank();
  win.local()[1] = 7 * node.rank() + 1;
  const int next = (node.rank() + 1) % node.size();
  {
    auto epoch = win.lock_all_epoch();
    win.sync();  // my stores are in the window
    node.barrier();
    win.sync();  // and I see the others'
    const std::span<int> theirs = win.shared_query(next);
    REQUIRE(theirs.size() == 2u);
    CHECK(theirs[0] == 7 * next);
    CHECK(theirs[1] == 7 * next + 1);
  }
}

TEST_CASE("windows: misuse and MPI errors are exceptions; the epoch still ends") {
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(1));
  // fetch_and_op takes one element of each buffer: an empty one is refused before MPI reads it.
  std::vector<int> none, result(1);
  {
    auto epoch = win.lock_all_epoch();
    CHECK_THROWS_AS(
        win.fetch_and_op(origin_buf(none), result_buf(result), target_rank(0), op(std::plus<>{})),
        nampi::usage_error);
    // A target outside the window's group: MPI's error, as an exception with MPI's text.
    try {
      win.put(origin_buf(result), target_rank(comm.size() + 5));
      FAIL("no exception");
    } catch (const nampi::mpi_error& e) {
      CHECK(std::string(e.what()).find("MPI_Put") != std::string::npos);
    }
  }
  // An exception inside an epoch: the epoch ends on the way out, and the window stays usable.
  CHECK_THROWS_AS(
      [&] {
        auto epoch = win.lock_all_epoch();
        throw std::runtime_error("inside the epoch");
      }(),
      std::runtime_error);
  const int me = comm.rank();
  const int size = comm.size();
  const int left = (me + size - 1) % size, right = (me + 1) % size;
  const bool mpi_works = mpi_puts_land(comm, win, [&](int value, int target) {
    MPI_Win_lock_all(0, win.mpi_window());
    MPI_Put(&value, 1, MPI_INT, target, 0, 1, MPI_INT, win.mpi_window());
    MPI_Win_unlock_all(win.mpi_window());
    MPI_Win_fence(0, win.mpi_window());
  });
  {
    auto epoch = win.lock_all_epoch();
    win.put(origin_buf(me), target_rank(right));
  }
  win.fence();  // every rank's put is complete and visible here
  if (mpi_works)
    CHECK(win.local()[0] == left);
  else
    MESSAGE(
        "this MPI misplaces puts after an MPI error on the window (plain MPI too): not checked");
}

#if NAMPI_ASSERTION_LEVEL > 0
TEST_CASE("windows: a win_create size past the buffer is refused (builds with assertions)") {
  nampi::Communicator comm;
  std::vector<int> memory(2);
  CHECK_THROWS_AS(comm.win_create(base(memory), nampi::params::size(3)), nampi::usage_error);
}
#endif
