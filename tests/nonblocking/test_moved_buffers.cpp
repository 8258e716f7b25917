// What a nonblocking call does with buffers moved into it: it keeps them
// alive while MPI uses them and hands the data back from wait() (the
// README's example).
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/nampi.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

TEST_CASE("iallgatherv: the moved-in send buffer comes back after the gathered data") {
  nampi::Communicator comm;
  std::vector<int> local(static_cast<std::size_t>(comm.rank() + 1), comm.rank());
  const std::vector<int> original = local;
  const int* storage = local.data();
  nampi_pmpi_reset();
  auto pending = comm.iallgatherv(send_buf(std::move(local)));
  auto [all, local_back] = pending.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Allgather", 1}, {"MPI_Iallgatherv", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<int>>);
  static_assert(std::is_same_v<decltype(local_back), std::vector<int>>);
  CHECK(all == nampi_test::staircase(comm.size()));
  CHECK(local_back == original);
  CHECK(local_back.data() == storage);  // the caller's own storage, moved twice, never copied
  CHECK_FALSE(pending.holds_call());
}

TEST_CASE("isend of a moved vector: the receiver gets it, the sender gets it back") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  const std::vector<double> message{1.5, 2.5, 3.5};
  if (comm.rank() == 0) {
    std::vector<double> out = message;
    nampi_pmpi_reset();
    auto pending = comm.isend(send_buf(std::move(out)), dest(1), tag(3));
    std::vector<double> back = pending.wait();
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Isend", 1}, {"MPI_Wait", 1}});
    CHECK(back == message);
  } else if (comm.rank() == 1) {
    auto got = comm.recv<double>(source(0), tag(3));
    CHECK(got == message);
  }
}

TEST_CASE("isend of a moved single value: wait() hands it back as it does a vector") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 0) {
    double value = 2.75;
    auto pending = comm.isend(send_buf(std::move(value)), dest(1), tag(4));
    static_assert(std::is_same_v<decltype(pending.wait()), double>);
    CHECK(pending.wait() == 2.75);
  } else if (comm.rank() == 1) {
    CHECK(comm.recv_single<double>(source(0), tag(4)) == 2.75);
  }
}

TEST_CASE("isend of an lvalue returns nothing: the caller keeps the buffer") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  std::vector<int> out{4, 5, 6};
  if (comm.rank() == 0) {
    auto pending = comm.isend(send_buf(out), dest(1));
    static_assert(std::is_void_v<decltype(pending.wait())>);
  } else if (comm.rank() == 1) {
    CHECK(comm.recv<int>(source(0)) == out);
  }
}

TEST_CASE("irecv with status_out: test() until done, the status is filled by MPI_Test") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 1) {
    int polls = 0;
    nampi_pmpi_reset();
    auto pending = comm.irecv<int>(source(0), tag(9), recv_count(2), status_out());
    std::optional<decltype(pending)::value_type> done;
    while (!(done = pending.test())) ++polls;
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Irecv", 1}, {"MPI_Test", static_cast<unsigned long long>(polls + 1)}});
    auto& [data, status] = *done;
    CHECK(data == std::vector<int>{7, 8});
    CHECK(status.MPI_SOURCE == 0);
    CHECK(status.MPI_TAG == 9);
  } else if (comm.rank() == 0) {
    const std::vector<int> out{7, 8};
    MPI_Send(out.data(), 2, MPI_INT, 1, 9, MPI_COMM_WORLD);
  }
}

TEST_CASE("a pending result that is destroyed waits: the data has arrived afterwards") {
  nampi::Communicator comm;
  std::vector<int> into(static_cast<std::size_t>(comm.size()));
  const int mine = comm.rank() * 10;
  nampi_pmpi_reset();
  {
    auto pending = comm.iallgather(send_buf(mine), recv_buf(into));
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Iallgather", 1}, {"MPI_Wait", 1}});
  for (int r = 0; r < comm.size(); ++r) CHECK(into[static_cast<std::size_t>(r)] == r * 10);
}
