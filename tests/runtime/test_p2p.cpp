// Point-to-point calls: send/recv with inferred sizes, wildcards pinned by the
// probe, status out-parameters, sendrecv and sendrecv_replace on a ring.
// Pairs are (0, 1), (2, 3); a rank without a partner skips the pair tests.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

// The partner of this rank in the pairs (0, 1), (2, 3), or -1.
int partner(const nampi::Communicator& comm) {
  const int other = comm.rank() ^ 1;
  return other < comm.size() ? other : -1;
}

std::vector<int> message_of(int rank) {
  return std::vector<int>(static_cast<std::size_t>(rank) + 2, 10 * rank);
}

}  // namespace

TEST_CASE("send, then recv with the size found by probing") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (comm.rank() % 2 == 0) {
    comm.send(send_buf(message_of(comm.rank())), dest(other), tag(3));
    auto got = comm.recv<int>(source(other), tag(4));
    static_assert(std::is_same_v<decltype(got), std::vector<int>>);
    CHECK(got == message_of(other));
  } else {
    auto got = comm.recv<int>(source(other), tag(3));
    CHECK(got == message_of(other));
    comm.send(send_buf(message_of(comm.rank())), dest(other), tag(4));
  }
}

TEST_CASE("recv with wildcards returns the status of the message taken") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (comm.rank() % 2 == 0) {
    comm.send(send_buf(message_of(comm.rank())), dest(other), tag(7));
  } else {
    auto [got, status] = comm.recv<int>(status_out());
    static_assert(std::is_same_v<decltype(status), MPI_Status>);
    CHECK(got == message_of(other));
    CHECK(status.MPI_SOURCE == other);
    CHECK(status.MPI_TAG == 7);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    CHECK(count == static_cast<int>(message_of(other).size()));
  }
}

TEST_CASE("recv into a caller's buffer with a given count") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (comm.rank() % 2 == 0) {
    const int values[3] = {1, 2, 3};
    comm.send(send_buf(values), dest(other));
  } else {
    std::vector<int> got(5, -1);
    comm.recv(recv_buf(got), recv_count(3), source(other), tag(0));
    CHECK(got == std::vector<int>{1, 2, 3, -1, -1});
  }
}

TEST_CASE("probe returns the status; the message is still there") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (comm.rank() % 2 == 0) {
    comm.send(send_buf(message_of(comm.rank())), dest(other), tag(9));
  } else {
    const MPI_Status status = comm.probe(source(other));
    CHECK(status.MPI_TAG == 9);
    CHECK(comm.recv<int>(source(other), tag(9)) == message_of(other));
  }
}

TEST_CASE("sendrecv on a ring: the received size is exchanged first") {
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  auto got = comm.sendrecv(send_buf(message_of(comm.rank())), dest(right), source(left));
  static_assert(std::is_same_v<decltype(got), std::vector<int>>);
  CHECK(got == message_of(left));
}

TEST_CASE("sendrecv<T> names the received element type, as recv<T> does") {
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  auto got = comm.sendrecv<int>(send_buf(message_of(comm.rank())), dest(right), source(left));
  static_assert(std::is_same_v<decltype(got), std::vector<int>>);
  CHECK(got == message_of(left));
#if defined(NAMPI_HAVE_MPI_ISENDRECV)  // MPI 4.0 (not Open MPI 4.1)
  const std::vector<int> mine = message_of(comm.rank());
  auto pending = comm.isendrecv<int>(send_buf(mine), dest(right), source(left));
  CHECK(pending.wait() == message_of(left));
#endif
}

TEST_CASE("sendrecv_replace on a ring") {
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  std::vector<int> data(4, comm.rank());
  comm.sendrecv_replace(send_recv_buf(data), dest(right), source(left));
  CHECK(data == std::vector<int>(4, left));
}
