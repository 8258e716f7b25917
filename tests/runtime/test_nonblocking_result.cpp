// nonblocking_result itself: moved-in buffers handed back by wait(), test()
// polling, waiting when destroyed or assigned over while pending, and
// take_completed() after the request was completed elsewhere. Each case
// counts the exact MPI calls. Pairs are (0, 1), (2, 3); a rank without a
// partner skips.

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <type_traits>
#include <vector>

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

int partner(const nampi::Communicator& comm) {
  const int other = comm.rank() ^ 1;
  return other < comm.size() ? other : -1;
}

bool sends(const nampi::Communicator& comm) { return comm.rank() % 2 == 0; }

std::vector<int> message(int from, int n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = 1000 * from + i;
  return out;
}

// The receiver tells the sender it may send now (so that the receive is
// certainly pending before the data can arrive).
void send_go(int to) { MPI_Send(nullptr, 0, MPI_INT, to, 99, MPI_COMM_WORLD); }
void recv_go(int from) {
  MPI_Recv(nullptr, 0, MPI_INT, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

}  // namespace

TEST_CASE("a moved-in send buffer comes back intact from wait()") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    std::vector<int> v = message(comm.rank(), 1000);
    const std::vector<int> original = v;
    const int* const data = v.data();
    nampi_pmpi_reset();
    auto r = comm.isend(send_buf(std::move(v)), dest(other));
    auto back = r.wait();
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Isend", 1}, {"MPI_Wait", 1}});
    static_assert(std::is_same_v<decltype(back), std::vector<int>>);
    CHECK(back == original);
    CHECK(back.data() == data);  // the same storage, moved twice, never copied
    CHECK_FALSE(r.holds_call());
  } else {
    std::vector<int> got(1000);
    MPI_Recv(got.data(), 1000, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == message(other, 1000));
  }
}

TEST_CASE("test() polls until the data is there: one MPI_Test per poll") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    recv_go(other);
    const std::vector<int> v = message(comm.rank(), 5);
    MPI_Send(v.data(), 5, MPI_INT, other, 1, MPI_COMM_WORLD);
  } else {
    nampi_pmpi_reset();
    auto r = comm.irecv<int>(source(other), tag(1), recv_count(5));
    unsigned long long polls = 1;
    auto first = r.test();
    CHECK_FALSE(first.has_value());  // nothing was sent yet
    send_go(other);
    std::optional<std::vector<int>> got;
    while (!(got = r.test())) ++polls;
    ++polls;
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Irecv", 1}, {"MPI_Send", 1}, {"MPI_Test", polls}});
    CHECK(*got == message(other, 5));
    CHECK_FALSE(r.holds_call());
  }
}

TEST_CASE("test() on a call returning nothing gives true once done") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  const std::vector<int> v = message(comm.rank(), 3);
  if (sends(comm)) {
    nampi_pmpi_reset();
    auto r = comm.isend(send_buf(v), dest(other), tag(2));
    static_assert(std::is_same_v<decltype(r.test()), bool>);
    unsigned long long polls = 1;
    while (!r.test()) ++polls;
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Isend", 1}, {"MPI_Test", polls}});
    CHECK_FALSE(r.holds_call());
  } else {
    std::vector<int> got(3);
    MPI_Recv(got.data(), 3, MPI_INT, other, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == message(other, 3));
  }
}

TEST_CASE("destroying a pending result waits for it: the data is there, one MPI_Wait") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    recv_go(other);
    const std::vector<int> v = message(comm.rank(), 4);
    MPI_Send(v.data(), 4, MPI_INT, other, 3, MPI_COMM_WORLD);
  } else {
    std::vector<int> got(4, -1);
    nampi_pmpi_reset();
    {
      auto r = comm.irecv(recv_buf(got), recv_count(4), source(other), tag(3));
      send_go(other);
    }
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Irecv", 1}, {"MPI_Send", 1}, {"MPI_Wait", 1}});
    CHECK(got == message(other, 4));
  }
}

TEST_CASE("assigning over a pending result waits for the old one first") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    recv_go(other);
    const std::vector<int> first = message(comm.rank(), 3);
    const std::vector<int> second = message(comm.rank() + 10, 3);
    MPI_Send(first.data(), 3, MPI_INT, other, 4, MPI_COMM_WORLD);
    MPI_Send(second.data(), 3, MPI_INT, other, 5, MPI_COMM_WORLD);
  } else {
    std::vector<int> a(3, -1);
    std::vector<int> b(3, -1);
    auto r = comm.irecv(recv_buf(a), recv_count(3), source(other), tag(4));
    send_go(other);
    nampi_pmpi_reset();
    r = comm.irecv(recv_buf(b), recv_count(3), source(other), tag(5));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Irecv", 1}, {"MPI_Wait", 1}});
    CHECK(a == message(other, 3));
    r.wait();
    CHECK(b == message(other + 10, 3));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Irecv", 1}, {"MPI_Wait", 2}});
  }
}

TEST_CASE("take_completed() after MPI_Waitall: the values and statuses, no further MPI call") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    const std::vector<int> a = message(comm.rank(), 2);
    const std::vector<int> b = message(comm.rank() + 10, 6);
    MPI_Send(a.data(), 2, MPI_INT, other, 6, MPI_COMM_WORLD);
    MPI_Send(b.data(), 6, MPI_INT, other, 7, MPI_COMM_WORLD);
  } else {
    nampi_pmpi_reset();
    auto with_status = comm.irecv<int>(source(other), tag(6), recv_count(2), status_out());
    auto without = comm.irecv<int>(source(MPI_ANY_SOURCE), tag(7), recv_count(6));
    static_assert(decltype(with_status)::has_status);
    static_assert(!decltype(without)::has_status);
    MPI_Request requests[2] = {with_status.mpi_request(), without.mpi_request()};
    MPI_Status statuses[2];
    REQUIRE(MPI_Waitall(2, requests, statuses) == MPI_SUCCESS);
    with_status.mpi_request() = MPI_REQUEST_NULL;
    without.mpi_request() = MPI_REQUEST_NULL;
    auto [data, status] = with_status.take_completed(&statuses[0]);
    const std::vector<int> other_data = without.take_completed(&statuses[1]);
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Irecv", 2}, {"MPI_Waitall", 1}});
    CHECK(data == message(other, 2));
    CHECK(status.MPI_SOURCE == other);
    CHECK(status.MPI_TAG == 6);
    CHECK(other_data == message(other + 10, 6));
    CHECK(statuses[1].MPI_SOURCE == other);
  }
}

TEST_CASE("take_completed() on a pending request is a usage error") {
  nampi::Communicator comm;
  if (nampi::errors_are_fatal || NAMPI_ASSERTION_LEVEL == 0) return;
  auto r = comm.irecv<int>(source(comm.rank()), tag(8), recv_count(1));
  CHECK_THROWS_AS(r.take_completed(MPI_STATUS_IGNORE), nampi::usage_error);
  CHECK(r.holds_call());
  const int one = 1;
  MPI_Send(&one, 1, MPI_INT, comm.rank(), 8, MPI_COMM_WORLD);
  CHECK(r.wait() == std::vector<int>{1});
}
