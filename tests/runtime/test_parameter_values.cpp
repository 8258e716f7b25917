// Values a parameter takes as users of other MPI bindings expect: enum tags,
// function objects whose operator() is not const, braced lists as buffers,
// received bools compared with bool, MPI_Op constants and variables (an int
// under MPICH, a pointer under Open MPI), and communicators made from
// MPI_COMM_NULL and from the typed layer's unique_comm.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <functional>
#include <nampi/mpi/communicators.hpp>
#include <nampi/nampi.hpp>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

enum class colour : short { red = 3, green = 5 };
enum plain_tag { plain_seven = 7 };

// Stateless, but its operator() is not const (as a peer library's users write them).
struct mutable_plus {
  int operator()(int a, int b) { return a + b; }
};

// Stateful and not const: counts its calls (MPI calls it as often as it likes).
struct counting_max {
  int calls = 0;
  int operator()(int a, int b) {
    ++calls;
    return a < b ? b : a;
  }
};

int sum_to(int n) { return n * (n + 1) / 2; }

}  // namespace

TEST_CASE("an enum class tag travels as its underlying value") {
  nampi::Communicator comm;
  const int next = (comm.rank() + 1) % comm.size();
  const int prev = (comm.rank() + comm.size() - 1) % comm.size();
  auto sent = comm.isend(send_buf(std::vector<int>{comm.rank()}), dest(next), tag(colour::green));
  auto [got, status] = comm.recv<int>(source(prev), status_out());
  sent.wait();
  CHECK(got == std::vector<int>{prev});
  CHECK(status.MPI_TAG == 5);
}

TEST_CASE("an unscoped enum tag, and enum send and receive tags of sendrecv") {
  nampi::Communicator comm;
  const int next = (comm.rank() + 1) % comm.size();
  const int prev = (comm.rank() + comm.size() - 1) % comm.size();
  auto sent =
      comm.isend(send_buf(std::vector<int>{10 + comm.rank()}), dest(next), tag(plain_seven));
  auto got = comm.recv<int>(source(prev), tag(plain_seven));
  sent.wait();
  CHECK(got == std::vector<int>{10 + prev});

  auto [back, status] =
      comm.sendrecv(send_buf(std::vector<int>{comm.rank()}), dest(next), send_tag(colour::red),
                    source(prev), recv_tag(colour::red), recv_count(1), status_out());
  CHECK(back == std::vector<int>{prev});
  CHECK(status.MPI_TAG == 3);
}

TEST_CASE("an op whose operator() is not const: stateless and stateful") {
  nampi::Communicator comm;
  CHECK(comm.allreduce_single(send_buf(comm.rank() + 1), op(mutable_plus{})) ==
        sum_to(comm.size()));

  counting_max biggest;
  const std::vector<int> mine{comm.rank(), -comm.rank()};
  const auto got = comm.allreduce(send_buf(mine), op(biggest));
  CHECK(got == std::vector<int>{comm.size() - 1, 0});
  // The caller's object itself was called (an lvalue is referenced, not
  // copied) on some rank that combined; with one rank MPI combines nothing.
  if (comm.size() > 1) {
    const int any = comm.allreduce_single(send_buf(biggest.calls > 0 ? 1 : 0), op(std::plus<>{}));
    CHECK(any > 0);
  }
  CHECK(comm.allreduce(send_buf(mine), op(counting_max{}, nampi::commutative)) == got);

  int offset = 0;  // a mutable lambda with a capture
  const int total = comm.allreduce_single(send_buf(comm.rank()), op([offset](int a, int b) mutable {
                                            offset = 0;
                                            return a + b + offset;
                                          }));
  CHECK(total == sum_to(comm.size() - 1));
}

TEST_CASE("op takes MPI_Op constants and variables") {
  nampi::Communicator comm;
  CHECK(comm.allreduce_single(send_buf(comm.rank()), op(MPI_MAX)) == comm.size() - 1);
  MPI_Op chosen = MPI_SUM;
  CHECK(comm.allreduce_single(send_buf(1), op(chosen)) == comm.size());
  const MPI_Op minimum = MPI_MIN;
  CHECK(comm.allreduce_single(send_buf(comm.rank() + 4), op(minimum)) == 4);
}

TEST_CASE("a braced list is a buffer (moved in as a std::vector)") {
  nampi::Communicator comm;
  const int r = comm.rank();
  const auto all = comm.allgather(send_buf({r, 10 * r}));
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(all)>, std::vector<int>>);
  REQUIRE(all.size() == 2 * static_cast<std::size_t>(comm.size()));
  for (int i = 0; i < comm.size(); ++i) {
    CHECK(all[2 * static_cast<std::size_t>(i)] == i);
    CHECK(all[2 * static_cast<std::size_t>(i) + 1] == 10 * i);
  }
  // In place: the root's list everywhere, handed back.
  const auto root_list = comm.bcast(send_recv_buf({r + 1, r + 2, r + 3}));
  CHECK(root_list == std::vector<int>{1, 2, 3});
  // Counts as a braced list: one element to each of at most 4 ranks, given for 4.
  if (comm.size() == 4) {
    const auto got = comm.alltoallv(send_buf({r, r, r, r}), send_counts({1, 1, 1, 1}),
                                    recv_counts({1, 1, 1, 1}));
    CHECK(got == std::vector<int>{0, 1, 2, 3});
  }
}

TEST_CASE("received bools compare with bool") {
  nampi::Communicator comm;
  const auto all = comm.allgather(send_buf(comm.rank() % 2 == 0));
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  static_assert(std::is_same_v<std::ranges::range_value_t<decltype(all)>, nampi::bool_value>);
  for (int i = 0; i < comm.size(); ++i) {
    const bool even = i % 2 == 0;
    CHECK(all[static_cast<std::size_t>(i)] == even);
    CHECK(even == all[static_cast<std::size_t>(i)]);
    CHECK(all[static_cast<std::size_t>(i)] != !even);
  }
  CHECK(all[0] == true);
}

TEST_CASE("a Communicator of MPI_COMM_NULL is null") {
  const nampi::Communicator none(MPI_COMM_NULL);
  CHECK(none.is_null());
  CHECK(none.rank() == MPI_UNDEFINED);
  CHECK(none.size() == 0);
  CHECK(none.mpi_communicator() == MPI_COMM_NULL);
}

TEST_CASE("a Communicator views a unique_comm, which keeps owning it") {
  nampi::Communicator world;
  nampi::mpi::unique_comm dup = nampi::mpi::comm_dup(nampi::mpi::comm(MPI_COMM_WORLD));
  const int free_index = nampi_pmpi_index("MPI_Comm_free");
  nampi_pmpi_reset();
  {
    nampi::Communicator view(dup);
    CHECK(view.mpi_communicator() == dup.get());
    CHECK(view.size() == world.size());
    CHECK(view.allreduce_single(send_buf(1), op(std::plus<>{})) == world.size());
  }
  CHECK(nampi_pmpi_count(free_index) == 0);  // the view freed nothing
  CHECK(dup.owns());
}

TEST_CASE("an OwnedCommunicator adopts a unique_comm and frees it once") {
  nampi::Communicator world;
  const int free_index = nampi_pmpi_index("MPI_Comm_free");
  nampi_pmpi_reset();
  {
    nampi::OwnedCommunicator owned(
        nampi::mpi::comm_split(nampi::mpi::comm(MPI_COMM_WORLD), 0, -world.rank()));
    CHECK_FALSE(owned.is_null());
    CHECK(owned.size() == world.size());
    CHECK(owned.rank() == world.size() - 1 - world.rank());  // split by descending key
    CHECK(owned.allreduce_single(send_buf(owned.rank()), op(std::plus<>{})) ==
          sum_to(world.size() - 1));
    nampi::OwnedCommunicator moved(std::move(owned));
    CHECK(owned.is_null());
    CHECK(nampi_pmpi_count(free_index) == 0);
  }
  CHECK(nampi_pmpi_count(free_index) == 1);
}

TEST_CASE("a count that does not fit the caller's type names the parameter the caller wrote") {
  // bcast_size_of sizes bcast's send_recv_count: its message names that, not a rule's 'count'.
  nampi::Communicator comm;
  std::vector<char> data(300, 'x');
  signed char count = 0;
  CHECK_THROWS_WITH_AS(comm.bcast(send_recv_buf(data), send_recv_count_out(count)),
                       doctest::Contains("bcast: 'send_recv_count' (300) does not fit"),
                       nampi::usage_error);
}
