// request_pool and bounded_request_pool: each completion function is one MPI
// call over the pool's requests (counted exactly), handlers get every value,
// statuses reach status_out and raw handlers, raw and typed-layer requests mix
// with nampi's results. Messages go around the ring (right = rank + 1), so
// every case runs on 1..4 ranks.

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <functional>
#include <map>
#include <nampi/mpi/pt2pt.hpp>
#include <nampi/nampi.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

struct ring {
  explicit ring(const nampi::Communicator& comm)
      : rank(comm.rank()),
        size(comm.size()),
        left((comm.rank() + comm.size() - 1) % comm.size()),
        right((comm.rank() + 1) % comm.size()) {}
  int rank, size, left, right;
};

// What rank `from` sends in message `k`.
std::vector<int> message(int from, int k) { return {from, k, 100 * from + k}; }

}  // namespace

TEST_CASE("wait_all: one MPI_Waitall for three operations, then every handler") {
  nampi::Communicator comm;
  const ring r(comm);
  const std::vector<int> contribution{r.rank + 1, 1};
  std::vector<int> received, handed_back, sum;
  nampi::request_pool pool;
  nampi_pmpi_reset();
  pool.add(comm.irecv<int>(source(r.left), tag(10), recv_count(3)),
           [&](std::vector<int> v) { received = std::move(v); });
  pool.add(comm.isend(send_buf(message(r.rank, 0)), dest(r.right), tag(10)),
           [&](std::vector<int> v) { handed_back = std::move(v); });
  pool.add(comm.iallreduce(send_buf(contribution), op(std::plus<>{})),
           [&](std::vector<int> v) { sum = std::move(v); });
  CHECK(pool.size() == 3);
  CHECK(received.empty());
  pool.wait_all();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Iallreduce", 1}, {"MPI_Irecv", 1}, {"MPI_Isend", 1}, {"MPI_Waitall", 1}});
  CHECK(pool.empty());
  CHECK(received == message(r.left, 0));
  CHECK(handed_back == message(r.rank, 0));
  CHECK(sum == std::vector<int>{r.size * (r.size + 1) / 2, r.size});
}

TEST_CASE("an empty pool makes no MPI call") {
  nampi::request_pool pool;
  nampi::bounded_request_pool window(4);
  nampi_pmpi_reset();
  pool.wait_all();
  CHECK(pool.test_all());
  CHECK_FALSE(pool.wait_any());
  CHECK_FALSE(pool.test_any());
  CHECK(pool.wait_some() == 0);
  CHECK(pool.test_some() == 0);
  window.wait_all();
  CHECK_FALSE(window.wait_any());
  CHECK(nampi_pmpi::snapshot().empty());
}

TEST_CASE("wait_any: one MPI_Waitany completes one operation and runs its handler") {
  nampi::Communicator comm;
  const ring r(comm);
  std::vector<int> received;
  int handlers = 0;
  nampi::request_pool pool;
  nampi_pmpi_reset();
  pool.add(comm.irecv<int>(source(r.left), tag(11), recv_count(3)), [&](std::vector<int> v) {
    received = std::move(v);
    ++handlers;
  });
  pool.add(comm.isend(send_buf(message(r.rank, 1)), dest(r.right), tag(11)),
           [&](auto&&) { ++handlers; });
  CHECK(pool.wait_any());
  CHECK(handlers == 1);
  CHECK(pool.size() == 1);
  CHECK(pool.wait_any());
  CHECK(handlers == 2);
  CHECK(pool.empty());
  CHECK_FALSE(pool.wait_any());
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Irecv", 1}, {"MPI_Isend", 1}, {"MPI_Waitany", 2}});
  CHECK(received == message(r.left, 1));
}

TEST_CASE("wait_some, test_some, test_any, test_all: one MPI call each, every value once") {
  nampi::Communicator comm;
  const ring r(comm);
  for (const char* how : {"MPI_Waitsome", "MPI_Testsome", "MPI_Testany", "MPI_Testall"}) {
    CAPTURE(how);
    const std::string name = how;
    std::vector<std::vector<int>> received(4);
    int sends_done = 0;
    nampi::request_pool pool;
    nampi_pmpi_reset();
    for (int k = 0; k < 4; ++k) {
      pool.add(
          comm.irecv<int>(source(r.left), tag(20 + k), recv_count(3)),
          [&, k](std::vector<int> v) { received[static_cast<std::size_t>(k)] = std::move(v); });
      pool.add(comm.isend(send_buf(message(r.rank, k)), dest(r.right), tag(20 + k)),
               [&](auto&&) { ++sends_done; });
    }
    unsigned long long calls = 0;
    std::size_t completed = 0;
    while (!pool.empty()) {
      ++calls;
      const std::size_t before = pool.size();
      if (name == "MPI_Waitsome") {
        const std::size_t n = pool.wait_some();
        CHECK(n >= 1);
        completed += n;
      } else if (name == "MPI_Testsome") {
        completed += pool.test_some();
      } else if (name == "MPI_Testany") {
        if (pool.test_any()) ++completed;
      } else if (pool.test_all()) {
        completed += before;
      }
      CHECK(before - pool.size() == completed - (8 - before));
    }
    CHECK(completed == 8);
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Irecv", 4}, {"MPI_Isend", 4}, {how, calls}});
    CHECK(sends_done == 4);
    for (int k = 0; k < 4; ++k) CHECK(received[static_cast<std::size_t>(k)] == message(r.left, k));
  }
}

TEST_CASE("statuses: MPI's status reaches status_out and a raw request's handler") {
  nampi::Communicator comm;
  const ring r(comm);
  std::vector<int> raw_buffer(3, -1);
  std::vector<int> received;
  MPI_Status result_status{};
  MPI_Status raw_status{};
  nampi::request_pool pool;
  pool.add(comm.irecv<int>(source(MPI_ANY_SOURCE), tag(30), recv_count(3), status_out()),
           [&](auto value) {
             auto [data, status] = std::move(value);
             received = std::move(data);
             result_status = status;
           });
  MPI_Request raw;
  MPI_Irecv(raw_buffer.data(), 3, MPI_INT, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &raw);
  pool.add(raw, [&](const MPI_Status& status) { raw_status = status; });
  pool.add(comm.isend(send_buf(message(r.rank, 30)), dest(r.right), tag(30)), [](auto&&) {});
  pool.add(comm.isend(send_buf(message(r.rank, 31)), dest(r.right), tag(31)), [](auto&&) {});
  pool.wait_all();
  CHECK(received == message(r.left, 30));
  CHECK(result_status.MPI_SOURCE == r.left);
  CHECK(result_status.MPI_TAG == 30);
  CHECK(raw_buffer == message(r.left, 31));
  CHECK(raw_status.MPI_SOURCE == r.left);
  CHECK(raw_status.MPI_TAG == 31);
  int count = -1;
  MPI_Get_count(&raw_status, MPI_INT, &count);
  CHECK(count == 3);
}

TEST_CASE("raw MPI requests and typed-layer requests mix with results: one MPI_Waitall") {
  nampi::Communicator comm;
  const ring r(comm);
  namespace mpi = nampi::mpi;
  const std::vector<int> plain_out = message(r.rank, 40);
  const std::vector<int> typed_out = message(r.rank, 41);
  std::vector<int> plain_in(3, -1), typed_in(3, -1);
  std::vector<int> nampi_in;
  bool plain_done = false;
  nampi::request_pool pool;
  nampi_pmpi_reset();
  MPI_Request plain_recv, plain_send;
  MPI_Irecv(plain_in.data(), 3, MPI_INT, r.left, 40, MPI_COMM_WORLD, &plain_recv);
  MPI_Isend(plain_out.data(), 3, MPI_INT, r.right, 40, MPI_COMM_WORLD, &plain_send);
  pool.add(plain_recv, [&] { plain_done = true; });
  pool.add(plain_send);
  pool.add(mpi::irecv(typed_in.data(), 3, mpi::datatype(MPI_INT), r.left, 41, mpi::comm_world()));
  pool.add(mpi::isend(typed_out.data(), 3, mpi::datatype(MPI_INT), r.right, 41, mpi::comm_world()));
  pool.add(comm.irecv<int>(source(r.left), tag(42), recv_count(3)),
           [&](std::vector<int> v) { nampi_in = std::move(v); });
  pool.add(comm.isend(send_buf(message(r.rank, 42)), dest(r.right), tag(42)), [](auto&&) {});
  pool.add(comm.ibarrier());
  CHECK(pool.size() == 7);
  pool.wait_all();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Ibarrier", 1}, {"MPI_Irecv", 3}, {"MPI_Isend", 3}, {"MPI_Waitall", 1}});
  CHECK(plain_done);
  CHECK(plain_in == message(r.left, 40));
  CHECK(typed_in == message(r.left, 41));
  CHECK(nampi_in == message(r.left, 42));
}

TEST_CASE("bounded pool: adding to a full pool completes one operation first (MPI_Waitany)") {
  nampi::Communicator comm;
  const ring r(comm);
  constexpr int messages = 6;
  std::vector<std::vector<int>> received(messages);
  int completed = 0;
  nampi::bounded_request_pool window(2);
  CHECK(window.slots() == 2);
  nampi_pmpi_reset();
  for (int k = 0; k < messages; ++k) {
    window.add(comm.irecv<int>(source(r.left), tag(50 + k), recv_count(3)),
               [&, k](std::vector<int> v) {
                 received[static_cast<std::size_t>(k)] = std::move(v);
                 ++completed;
               });
    // Every add after the first two finds the window full and completes one.
    CHECK(completed == std::max(0, 2 * k + 1 - 2));
    window.add(comm.isend(send_buf(message(r.rank, k)), dest(r.right), tag(50 + k)),
               [&](auto&&) { ++completed; });
    CHECK(completed == 2 * k);
    CHECK(window.size() == 2);
  }
  window.wait_all();
  CHECK(completed == 2 * messages);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Irecv", messages},
                                              {"MPI_Isend", messages},
                                              {"MPI_Waitany", 2 * messages - 2},
                                              {"MPI_Waitall", 1}});
  for (int k = 0; k < messages; ++k)
    CHECK(received[static_cast<std::size_t>(k)] == message(r.left, k));
}

TEST_CASE("a result completed elsewhere: its handler runs at once, without an MPI call") {
  nampi::Communicator comm;
  const ring r(comm);
  auto result = comm.irecv<int>(source(r.left), tag(60), recv_count(3));
  const std::vector<int> out = message(r.rank, 60);
  MPI_Send(out.data(), 3, MPI_INT, r.right, 60, MPI_COMM_WORLD);
  MPI_Wait(&result.mpi_request(), MPI_STATUS_IGNORE);
  std::vector<int> received;
  nampi::request_pool pool;
  nampi_pmpi_reset();
  pool.add(std::move(result), [&](std::vector<int> v) { received = std::move(v); });
  CHECK(nampi_pmpi::snapshot().empty());
  CHECK(pool.empty());
  CHECK(received == message(r.left, 60));
}

TEST_CASE("a handler may add to the pool: each receive posts the next") {
  nampi::Communicator comm;
  const ring r(comm);
  constexpr int messages = 5;
  std::vector<std::vector<int>> received;
  nampi::request_pool pool;
  std::function<void(std::vector<int>)> on_message = [&](std::vector<int> v) {
    received.push_back(std::move(v));
    const int k = static_cast<int>(received.size());
    if (k < messages)
      pool.add(comm.irecv<int>(source(r.left), tag(70 + k), recv_count(3)), on_message);
  };
  nampi_pmpi_reset();
  pool.add(comm.irecv<int>(source(r.left), tag(70), recv_count(3)), on_message);
  for (int k = 0; k < messages; ++k)
    pool.add(comm.isend(send_buf(message(r.rank, k)), dest(r.right), tag(70 + k)), [](auto&&) {});
  unsigned long long waits = 0;
  while (pool.wait_any()) ++waits;
  CHECK(waits == 2 * messages);
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Irecv", messages}, {"MPI_Isend", messages}, {"MPI_Waitany", waits}});
  REQUIRE(received.size() == messages);
  for (int k = 0; k < messages; ++k)
    CHECK(received[static_cast<std::size_t>(k)] == message(r.left, k));
}

TEST_CASE("destroying a pool waits for its operations (one MPI_Waitall) and runs no handler") {
  nampi::Communicator comm;
  const ring r(comm);
  std::vector<int> in(3, -1);
  bool handler_ran = false;
  nampi_pmpi_reset();
  {
    nampi::request_pool pool;
    pool.add(comm.irecv(recv_buf(in), source(r.left), tag(80), recv_count(3)),
             [&] { handler_ran = true; });
    pool.add(comm.isend(send_buf(message(r.rank, 80)), dest(r.right), tag(80)),
             [&](auto&&) { handler_ran = true; });
  }
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Irecv", 1}, {"MPI_Isend", 1}, {"MPI_Waitall", 1}});
  CHECK(in == message(r.left, 80));
  CHECK_FALSE(handler_ran);
}

TEST_CASE("a throwing handler: the exception leaves the pool call, the pool is consistent") {
  nampi::Communicator comm;
  const ring r(comm);
  int later_handlers = 0;
  nampi::request_pool pool;
  pool.add(comm.irecv<int>(source(r.left), tag(90), recv_count(3)),
           [](std::vector<int>) { throw std::runtime_error("from a handler"); });
  pool.add(comm.isend(send_buf(message(r.rank, 90)), dest(r.right), tag(90)),
           [&](auto&&) { ++later_handlers; });
  CHECK_THROWS_WITH_AS(pool.wait_all(), "from a handler", std::runtime_error);
  CHECK(pool.empty());
  CHECK(later_handlers == 0);  // completed by the same MPI_Waitall: dropped
  // The pool is still usable.
  std::vector<int> received;
  pool.add(comm.irecv<int>(source(r.left), tag(91), recv_count(3)),
           [&](std::vector<int> v) { received = std::move(v); });
  pool.add(comm.isend(send_buf(message(r.rank, 91)), dest(r.right), tag(91)), [](auto&&) {});
  pool.wait_all();
  CHECK(received == message(r.left, 91));
}

TEST_CASE("a moved pool keeps the operations; the moved-from one is empty") {
  nampi::Communicator comm;
  const ring r(comm);
  std::vector<int> received;
  nampi::request_pool first;
  first.add(comm.irecv<int>(source(r.left), tag(95), recv_count(3)),
            [&](std::vector<int> v) { received = std::move(v); });
  first.add(comm.isend(send_buf(message(r.rank, 95)), dest(r.right), tag(95)), [](auto&&) {});
  nampi::request_pool second = std::move(first);
  CHECK(first.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  CHECK(second.size() == 2);
  nampi_pmpi_reset();
  second.wait_all();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Waitall", 1}});
  CHECK(received == message(r.left, 95));
}

TEST_CASE("a handler too large to be held inline (kept on the heap) works the same") {
  nampi::Communicator comm;
  const ring r(comm);
  std::array<int, 64> big{};
  big.fill(7);
  std::vector<int> received;
  long long big_sum = 0;
  nampi::bounded_request_pool window(1);
  window.add(comm.irecv<int>(source(r.left), tag(97), recv_count(3)), [&, big](std::vector<int> v) {
    received = std::move(v);
    for (int x : big) big_sum += x;
  });
  window.add(comm.isend(send_buf(message(r.rank, 97)), dest(r.right), tag(97)), [](auto&&) {});
  window.wait_all();
  CHECK(received == message(r.left, 97));
  CHECK(big_sum == 7 * 64);
}

TEST_CASE("a bounded pool needs at least one slot") {
  CHECK_THROWS_AS(nampi::bounded_request_pool(0), nampi::usage_error);
}
