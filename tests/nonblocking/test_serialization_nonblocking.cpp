// Serialized buffers (nampi/serialization.hpp) in the nonblocking calls: isend
// serializes when it starts and its result owns the bytes until completion;
// irecv probes (blocking) for the size and deserializes in wait()/test();
// ibcast broadcasts the size with a blocking MPI_Bcast, then starts MPI_Ibcast,
// and deserializes in wait(). Each case checks values and the exact MPI calls.
// Pairs are (0, 1), (2, 3); a rank without a partner skips the pair cases.

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "serialization_test_types.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;
using nampi_test::dict;
using nampi_test::record;

namespace {

int partner(const nampi::Communicator& comm) {
  const int other = comm.rank() ^ 1;
  return other < comm.size() ? other : -1;
}

bool sends(const nampi::Communicator& comm) { return comm.rank() % 2 == 0; }

dict dict_of(int rank) {
  dict d;
  for (int i = 0; i <= rank + 1; ++i)
    d["k" + std::to_string(i)] = std::vector<int>(static_cast<std::size_t>(i + 2 * rank), rank - i);
  return d;
}

record record_of(int rank) {
  return {std::string(static_cast<std::size_t>(rank) + 1, static_cast<char>('a' + rank)),
          std::vector<double>(static_cast<std::size_t>(rank) * 100 + 5, rank), rank};
}

// The receiver tells the sender it may send now.
void send_go(int to) { MPI_Send(nullptr, 0, MPI_INT, to, 99, MPI_COMM_WORLD); }
void recv_go(int from) {
  MPI_Recv(nullptr, 0, MPI_INT, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

}  // namespace

TEST_CASE("isend owns the serialized bytes: the object may change before wait()") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    dict d = dict_of(comm.rank());
    nampi_pmpi_reset();
    auto r = comm.isend(send_buf(nampi::as_serialized(d)), dest(other), tag(4));
    d.clear();  // serialized when the call started: the message keeps the old value
    d["changed"] = {1};
    static_assert(std::is_void_v<decltype(r.wait())>);
    r.wait();
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Isend", 1}, {"MPI_Wait", 1}});
  } else {
    nampi_pmpi_reset();
    auto r = comm.irecv(recv_buf(nampi::as_deserializable<dict>()), source(other), tag(4));
    auto got = r.wait();
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Get_count", 1}, {"MPI_Irecv", 1}, {"MPI_Probe", 1}, {"MPI_Wait", 1}});
    static_assert(std::is_same_v<decltype(got), dict>);
    CHECK(got == dict_of(other));
  }
}

TEST_CASE("issend of a temporary; irecv into the caller's object, written at completion") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    recv_go(other);
    nampi_pmpi_reset();
    auto r = comm.issend(send_buf(nampi::as_serialized(record_of(comm.rank()))), dest(other));
    r.wait();
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Issend", 1}, {"MPI_Wait", 1}});
  } else {
    record mine = record_of(comm.rank());
    send_go(other);
    nampi_pmpi_reset();
    // irecv probes first, so the message has arrived when it returns; test()
    // completes it and only then deserializes into `mine`.
    auto r = comm.irecv(recv_buf(nampi::as_serialized(mine)), source(other));
    CHECK(mine == record_of(comm.rank()));
    unsigned long long polls = 1;
    while (!r.test()) ++polls;
    CHECK(
        nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Get_count", 1}, {"MPI_Irecv", 1}, {"MPI_Probe", 1}, {"MPI_Test", polls}});
    CHECK(mine == record_of(other));
  }
}

TEST_CASE("ibcast into every rank's object: blocking MPI_Bcast of the size, then MPI_Ibcast") {
  nampi::Communicator comm;
  for (int root_rank = 0; root_rank < comm.size(); ++root_rank) {
    dict d = dict_of(comm.rank());
    nampi_pmpi_reset();
    auto r = comm.ibcast(send_recv_buf(nampi::as_serialized(d)), root(root_rank));
    CHECK(d == dict_of(comm.rank()));  // nothing is written before completion
    r.wait();
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Bcast", 1}, {"MPI_Ibcast", 1}, {"MPI_Wait", 1}});
    CHECK(d == dict_of(root_rank));
  }
}

TEST_CASE("ibcast of a moved-in serialized struct: wait() returns the root's value") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  nampi_pmpi_reset();
  auto r = comm.ibcast(send_recv_buf(nampi::as_serialized(record_of(comm.rank()))), root(last));
  auto got = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Bcast", 1}, {"MPI_Ibcast", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(got), record>);
  CHECK(got == record_of(last));
}

TEST_CASE("iallgatherv of serialized maps: blocking allgather of the sizes, then iallgatherv") {
  nampi::Communicator comm;
  dict mine = dict_of(comm.rank());
  nampi_pmpi_reset();
  auto r = comm.iallgatherv(send_buf(nampi::as_serialized(mine)));
  mine.clear();  // serialized when the call started
  auto all = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Allgather", 1}, {"MPI_Iallgatherv", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<dict>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  for (int i = 0; i < comm.size(); ++i) CHECK(all[static_cast<std::size_t>(i)] == dict_of(i));
}

TEST_CASE("igatherv of serialized structs: wait() deserializes at the root") {
  nampi::Communicator comm;
  nampi_pmpi_reset();
  auto r = comm.igatherv(send_buf(nampi::as_serialized(record_of(comm.rank()))));
  auto all = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Gather", 1}, {"MPI_Igatherv", 1}, {"MPI_Wait", 1}});
  if (comm.rank() == 0) {
    REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
    for (int i = 0; i < comm.size(); ++i) CHECK(all[static_cast<std::size_t>(i)] == record_of(i));
  } else {
    CHECK(all.empty());
  }
}

TEST_CASE("iallgather of a serialized value is served by iallgatherv") {
  nampi::Communicator comm;
  nampi_pmpi_reset();
  auto r = comm.iallgather(send_buf(nampi::as_serialized(dict_of(comm.rank()))));
  auto all = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Allgather", 1}, {"MPI_Iallgatherv", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<dict>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  for (int i = 0; i < comm.size(); ++i) CHECK(all[static_cast<std::size_t>(i)] == dict_of(i));
}
