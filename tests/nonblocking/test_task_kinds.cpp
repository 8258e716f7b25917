// co_await in a nampi::task on each kind of nonblocking result besides the core calls'
// (tests/runtime/test_task.cpp): a window's rget, a file's iwrite_at / iread_at, persistent
// point-to-point (send_init / recv_init, started three times) and partitioned calls
// (psend_init / precv_init, where the MPI has them). The awaited value is what wait() gives;
// the scheduler completes the requests with MPI_Waitsome only (counted). Every rank sends to
// its right and receives from its left.

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/nampi.hpp>
#include <nampi/task.hpp>
#include <nampi/window.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
int left_of(const nampi::Communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }
int right_of(const nampi::Communicator& c) { return (c.rank() + 1) % c.size(); }
}  // namespace

#if defined(NAMPI_HAVE_MPI_RGET)
TEST_CASE("a window's rget: co_await gives the moved-in buffer back, filled") {
  nampi::Communicator comm;
  std::vector<int> memory(4);
  std::iota(memory.begin(), memory.end(), 10 * comm.rank());
  auto win = comm.win_create(base(memory));
  comm.barrier();
  auto body = [&](const nampi::Communicator& c) -> nampi::task<std::vector<int>> {
    auto epoch = win.lock_all_epoch();
    co_return co_await win.rget(origin_buf(std::vector<int>(2, -1)), target_rank(right_of(c)),
                                target_disp(1));
  };
  nampi_pmpi_reset();
  auto [got] = nampi::run(comm, body(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(got == std::vector<int>{10 * right_of(comm) + 1, 10 * right_of(comm) + 2});
  CHECK(counts.at("MPI_Rget") == 1);
  CHECK(counts.at("MPI_Waitsome") == 1);
  CHECK(counts.count("MPI_Wait") == 0);
  comm.barrier();
}
#endif

#if defined(NAMPI_HAVE_MPI_FILE_IWRITE_AT) && defined(NAMPI_HAVE_MPI_FILE_IREAD_AT)
TEST_CASE("a file's iwrite_at and iread_at: co_await each") {
  nampi::Communicator comm;
  const nampi_test::scratch_path path(comm, "task");
  auto file = comm.file_open(filename(path.name()), amode(MPI_MODE_CREATE | MPI_MODE_RDWR));
  const int rank = comm.rank();
  auto body = [&]() -> nampi::task<std::vector<int>> {
    std::vector<int> mine{rank, -rank};
    co_await file.iwrite_at(offset(rank * 2 * sizeof(int)), send_buf(mine));
    co_return co_await file.iread_at<int>(offset(rank * 2 * sizeof(int)), recv_count(2));
  };
  nampi_pmpi_reset();
  auto [back] = nampi::run(comm, body());
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(back == std::vector<int>{rank, -rank});
  CHECK(counts.at("MPI_File_iwrite_at") == 1);
  CHECK(counts.at("MPI_File_iread_at") == 1);
  CHECK(counts.at("MPI_Waitsome") == 2);
  comm.barrier();
  std::vector<int> expected;
  for (int r = 0; r < comm.size(); ++r) expected.insert(expected.end(), {r, -r});
  CHECK(nampi_test::read_whole_file<int>(file, comm) == expected);
}
#endif

TEST_CASE("persistent send_init / recv_init: three starts, each awaited") {
  nampi::Communicator comm;
  std::vector<int> out(2), in(2, -1);
  auto body = [&](const nampi::Communicator& c) -> nampi::task<int> {
    auto send = c.send_init(send_buf(out), dest(right_of(c)), tag(4));
    auto recv = c.recv_init(recv_buf(in), recv_count(2), source(left_of(c)), tag(4));
    int checked = 0;
    for (int round = 0; round < 3; ++round) {
      out = {c.rank(), round};
      recv.start();
      co_await send.start();
      co_await recv;  // started above, awaited by name
      CHECK(in == std::vector<int>{left_of(c), round});
      ++checked;
    }
    co_return checked;
  };
  nampi_pmpi_reset();
  auto [rounds] = nampi::run(comm, body(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(rounds == 3);
  CHECK(counts.at("MPI_Start") == 6);
  CHECK(counts.at("MPI_Waitsome") >= 3);
  CHECK(counts.at("MPI_Waitsome") <= 6);
  CHECK(counts.count("MPI_Wait") == 0);
}

#if defined(NAMPI_HAVE_MPI_PSEND_INIT) && defined(NAMPI_HAVE_MPI_PRECV_INIT) && \
    defined(NAMPI_HAVE_MPI_PREADY_RANGE)
TEST_CASE("partitioned psend_init / precv_init: the receive awaited, partitions marked ready") {
  nampi::Communicator comm;
  constexpr int parts = 3;
  std::vector<double> out(parts * 2), in(parts * 2, -1.0);
  auto body = [&](const nampi::Communicator& c) -> nampi::task<> {
    auto send = c.psend_init(send_buf(out), partitions(parts), dest(right_of(c)), tag(8));
    auto recv = c.precv_init(recv_buf(in), partitions(parts), source(left_of(c)), tag(8));
    for (int round = 0; round < 2; ++round) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = 100.0 * c.rank() + 10 * round + i;
      send.start();
      recv.start();
      send.pready_range(0, parts - 1);
      co_await send;
      co_await recv;
      for (std::size_t i = 0; i < in.size(); ++i)
        CHECK(in[i] == 100.0 * left_of(c) + 10 * round + i);
    }
  };
  nampi::run(comm, body(comm));
}
#endif
