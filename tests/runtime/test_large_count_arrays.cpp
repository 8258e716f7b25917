// Counts and displacements arrays given as MPI_Count and MPI_Aint: the `_c`
// function where the MPI has it (MPICH 5), else the emulation of
// large_count_alltoallw.hpp (Open MPI 5's wheel and 4.1): one MPI_Alltoallw
// (MPI_Neighbor_alltoallw) of a derived datatype per non-empty block. The small
// cases run on 1-4 ranks and check the values and the exact calls; the last one
// gathers 2^31 + 10 bytes from rank 1 at np2.
// ctest-labels: large
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <climits>
#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <utility>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

template <typename T>
std::vector<T> widened(const std::vector<int>& values) {
  return std::vector<T>(values.begin(), values.end());
}

// The calls of the emulation on one rank: `blocks` non-empty blocks (each its own
// placed type, created, committed and freed), found in `buffers` buffers (one
// MPI_Get_address each), `extents` datatypes whose extent scales displacements;
// `peers`: how it learns its peers (every rank of an intracommunicator, by default).
const call_counts every_rank{{"MPI_Comm_test_inter", 1}};
// The neighbours of a cartesian topology.
const call_counts cart_neighbors{{"MPI_Topo_test", 1}, {"MPI_Cartdim_get", 1}};

call_counts emulated(const std::string& exchange, int blocks, int buffers, int extents,
                     call_counts peers = every_rank) {
  call_counts calls = std::move(peers);
  calls[exchange] = 1;
  if (blocks > 0) {
    calls["MPI_Get_address"] = static_cast<unsigned long long>(buffers);
    for (const char* f : {"MPI_Type_create_struct", "MPI_Type_commit", "MPI_Type_free"})
      calls[f] = static_cast<unsigned long long>(blocks);
  }
  if (extents > 0) calls["MPI_Type_get_extent"] = static_cast<unsigned long long>(extents);
  return calls;
}

// The neighbourhood cases run on a periodic ring of 3 ranks or more: on 1 or 2,
// one rank is both neighbours.
bool ring_of_three_or_more() {
  if (nampi_test::world_size() >= 3) return true;
  MESSAGE("needs 3 ranks or more, skipped");
  return false;
}

// The calls of a call that has its large-count twin, or of its emulation; `before`: the calls
// either makes first (a neighbourhood call's topology query).
call_counts twin_or(const char* twin, bool has_twin, call_counts emulation,
                    call_counts before = {}) {
  if (!has_twin) return emulation;
  before[twin] = 1;
  return before;
}

#if defined(NAMPI_HAVE_MPI_GATHERV_C)
constexpr bool have_gatherv_c = true;
#else
constexpr bool have_gatherv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_SCATTERV_C)
constexpr bool have_scatterv_c = true;
#else
constexpr bool have_scatterv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_ALLGATHERV_C)
constexpr bool have_allgatherv_c = true;
#else
constexpr bool have_allgatherv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_ALLTOALLV_C)
constexpr bool have_alltoallv_c = true;
#else
constexpr bool have_alltoallv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_ALLTOALLW_C)
constexpr bool have_alltoallw_c = true;
#else
constexpr bool have_alltoallw_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_IALLGATHERV_C)
constexpr bool have_iallgatherv_c = true;
#else
constexpr bool have_iallgatherv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_INEIGHBOR_ALLTOALLV_C)
constexpr bool have_ineighbor_alltoallv_c = true;
#else
constexpr bool have_ineighbor_alltoallv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_NEIGHBOR_ALLGATHERV_C)
constexpr bool have_neighbor_allgatherv_c = true;
#else
constexpr bool have_neighbor_allgatherv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_NEIGHBOR_ALLTOALLW_C)
constexpr bool have_neighbor_alltoallw_c = true;
#else
constexpr bool have_neighbor_alltoallw_c = false;
#endif

}  // namespace

TEST_CASE("gatherv with MPI_Count counts and MPI_Aint displacements, at every rank") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const std::vector<int> mine(static_cast<std::size_t>(rank + 1), rank);
  // The root's arrays; the other ranks pass empty ones of the same types, so that
  // every rank takes the same path.
  const auto counts =
      rank == 0 ? widened<MPI_Count>(nampi_test::iota_counts(size)) : std::vector<MPI_Count>{};
  const auto displs =
      rank == 0 ? widened<MPI_Aint>(nampi_test::triangle_displs(size)) : std::vector<MPI_Aint>{};
  nampi_pmpi_reset();
  const auto all = comm.gatherv(send_buf(mine), recv_counts(counts), recv_displs(displs));
  // The root: its own block and one from every rank, in 2 buffers; the others: one block.
  CHECK(nampi_pmpi::snapshot() == twin_or("MPI_Gatherv_c", have_gatherv_c,
                                          rank == 0 ? emulated("MPI_Alltoallw", 1 + size, 2, 1)
                                                    : emulated("MPI_Alltoallw", 1, 1, 0)));
  CHECK(all == (rank == 0 ? nampi_test::staircase(size) : std::vector<int>{}));
}

TEST_CASE("scatterv with MPI_Count counts, the receive count inferred") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const std::vector<int> data = rank == 0 ? nampi_test::staircase(size) : std::vector<int>{};
  const auto counts =
      rank == 0 ? widened<MPI_Count>(nampi_test::iota_counts(size)) : std::vector<MPI_Count>{};
  const auto displs =
      rank == 0 ? widened<MPI_Aint>(nampi_test::triangle_displs(size)) : std::vector<MPI_Aint>{};
  nampi_pmpi_reset();
  const auto share = comm.scatterv(send_buf(data), send_counts(counts), send_displs(displs));
  auto expected = twin_or(
      "MPI_Scatterv_c", have_scatterv_c,
      rank == 0 ? emulated("MPI_Alltoallw", size + 1, 2, 1) : emulated("MPI_Alltoallw", 1, 1, 0));
  expected["MPI_Scatter"] = 1;  // the receive counts
  CHECK(nampi_pmpi::snapshot() == expected);
  CHECK(share == std::vector<int>(static_cast<std::size_t>(rank + 1), rank));
}

TEST_CASE("allgatherv with MPI_Count counts and MPI_Aint displacements") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const std::vector<int> mine(static_cast<std::size_t>(rank + 1), rank);
  const auto counts = widened<MPI_Count>(nampi_test::iota_counts(size));
  const auto displs = widened<MPI_Aint>(nampi_test::triangle_displs(size));
  nampi_pmpi_reset();
  const auto all = comm.allgatherv(send_buf(mine), recv_counts(counts), recv_displs(displs));
  CHECK(nampi_pmpi::snapshot() ==
        twin_or("MPI_Allgatherv_c", have_allgatherv_c, emulated("MPI_Alltoallw", 2 * size, 2, 1)));
  CHECK(all == nampi_test::staircase(size));
}

TEST_CASE("alltoallv with MPI_Count counts and MPI_Aint displacements, and empty blocks") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  SUBCASE("every block non-empty") {
    const auto data = nampi_test::alltoallv_send(rank, size);
    nampi_pmpi_reset();
    const auto received = comm.alltoallv(
        send_buf(data), send_counts(widened<MPI_Count>(nampi_test::iota_counts(size))),
        send_displs(widened<MPI_Aint>(nampi_test::triangle_displs(size))),
        recv_counts(std::vector<MPI_Count>(static_cast<std::size_t>(size), rank + 1)),
        recv_displs(widened<MPI_Aint>(nampi_test::multiples(size, rank + 1))));
    CHECK(nampi_pmpi::snapshot() ==
          twin_or("MPI_Alltoallv_c", have_alltoallv_c, emulated("MPI_Alltoallw", 2 * size, 2, 2)));
    CHECK(received == nampi_test::alltoallv_recv(rank, size));
  }
  SUBCASE("only to the next rank: the other blocks cost no datatype") {
    const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
    std::vector<MPI_Count> send(static_cast<std::size_t>(size), 0), recv(send);
    send[static_cast<std::size_t>(next)] = 3;
    recv[static_cast<std::size_t>(previous)] = 3;
    const std::vector<int> data(3, rank);
    nampi_pmpi_reset();
    const auto received = comm.alltoallv(
        send_buf(data), send_counts(send),
        send_displs(std::vector<MPI_Aint>(static_cast<std::size_t>(size), 0)), recv_counts(recv),
        recv_displs(std::vector<MPI_Aint>(static_cast<std::size_t>(size), 0)));
    CHECK(nampi_pmpi::snapshot() ==
          twin_or("MPI_Alltoallv_c", have_alltoallv_c, emulated("MPI_Alltoallw", 2, 2, 2)));
    CHECK(received == std::vector<int>(3, previous));
  }
}

TEST_CASE("alltoallw with MPI_Count counts and MPI_Aint byte displacements") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const auto data = nampi_test::alltoall_send(rank, size, 1);
  std::vector<int> received(static_cast<std::size_t>(size), -1);
  const std::vector<MPI_Count> ones(static_cast<std::size_t>(size), 1);
  std::vector<MPI_Aint> byte_displs(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    byte_displs[static_cast<std::size_t>(r)] = r * MPI_Aint{sizeof(int)};
  const std::vector<MPI_Datatype> types(static_cast<std::size_t>(size), MPI_INT);
  nampi_pmpi_reset();
  comm.alltoallw(send_buf(data), send_counts(ones), send_displs(byte_displs), send_types(types),
                 recv_buf(received), recv_counts(ones), recv_displs(byte_displs),
                 recv_types(types));
  CHECK(nampi_pmpi::snapshot() ==
        twin_or("MPI_Alltoallw_c", have_alltoallw_c, emulated("MPI_Alltoallw", 2 * size, 2, 0)));
  CHECK(received == nampi_test::alltoall_recv(rank, size, 1));
}

TEST_CASE("neighbor_allgatherv and neighbor_alltoallw with MPI_Count counts on a ring") {
  if (!ring_of_three_or_more()) return;
  const auto ring = nampi_test::cart_ring();
  const nampi::Communicator& comm = ring;
  const int rank = comm.rank(), size = comm.size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  // The neighbours of a 1-D cartesian grid, in MPI's order: left, then right.

  const std::vector<int> mine(static_cast<std::size_t>(rank + 1), rank);
  nampi_pmpi_reset();
  const auto from_neighbors = comm.neighbor_allgatherv(
      send_buf(mine), recv_counts(std::vector<MPI_Count>{left + 1, right + 1}),
      recv_displs(std::vector<MPI_Aint>{0, left + 1}));
  auto expected = emulated("MPI_Neighbor_alltoallw", 4, 2, 1, cart_neighbors);
  CHECK(nampi_pmpi::snapshot() ==
        twin_or("MPI_Neighbor_allgatherv_c", have_neighbor_allgatherv_c, expected, cart_neighbors));
  std::vector<int> both(static_cast<std::size_t>(left + 1), left);
  both.insert(both.end(), static_cast<std::size_t>(right + 1), right);
  CHECK(from_neighbors == both);

  const std::vector<int> data{100 * rank, 100 * rank + 1};  // to the left, to the right
  std::vector<int> received(2, -1);
  const std::vector<MPI_Count> ones{1, 1};
  const std::vector<MPI_Aint> byte_displs{0, MPI_Aint{sizeof(int)}};
  const std::vector<MPI_Datatype> types{MPI_INT, MPI_INT};
  nampi_pmpi_reset();
  comm.neighbor_alltoallw(send_buf(data), send_counts(ones), send_displs(byte_displs),
                          send_types(types), recv_buf(received), recv_counts(ones),
                          recv_displs(byte_displs), recv_types(types));
  expected = emulated("MPI_Neighbor_alltoallw", 4, 2, 0, cart_neighbors);
  CHECK(nampi_pmpi::snapshot() ==
        twin_or("MPI_Neighbor_alltoallw_c", have_neighbor_alltoallw_c, expected, cart_neighbors));
  // From the left its block for the right, from the right its block for the left.
  CHECK(received == std::vector<int>{100 * left + 1, 100 * right});
}

TEST_CASE("iallgatherv with MPI_Count counts: the result owns the emulation's types") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const std::vector<int> mine(static_cast<std::size_t>(rank + 1), rank);
  nampi_pmpi_reset();
  auto pending = comm.iallgatherv(
      send_buf(mine), recv_counts(widened<MPI_Count>(nampi_test::iota_counts(size))),
      recv_displs(widened<MPI_Aint>(nampi_test::triangle_displs(size))));
  if (!have_iallgatherv_c)  // MPI may still read the types: none is freed before completion
    CHECK(nampi_pmpi::snapshot().count("MPI_Type_free") == 0);
  const auto all = pending.wait();
  auto expected =
      twin_or("MPI_Iallgatherv_c", have_iallgatherv_c, emulated("MPI_Ialltoallw", 2 * size, 2, 1));
  expected["MPI_Wait"] = 1;
  CHECK(nampi_pmpi::snapshot() == expected);
  CHECK(all == nampi_test::staircase(size));
}

TEST_CASE("ineighbor_alltoallv with MPI_Count counts on a ring") {
  if (!ring_of_three_or_more()) return;
  const auto ring = nampi_test::cart_ring();
  const nampi::Communicator& comm = ring;
  const int rank = comm.rank(), size = comm.size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  // rank + 1 values to the left, one to the right.
  std::vector<int> data(static_cast<std::size_t>(rank + 1), 10 * rank);
  data.push_back(10 * rank + 1);
  nampi_pmpi_reset();
  auto pending = comm.ineighbor_alltoallv(
      send_buf(data), send_counts(std::vector<MPI_Count>{rank + 1, 1}),
      send_displs(std::vector<MPI_Aint>{0, rank + 1}),
      recv_counts(std::vector<MPI_Count>{1, right + 1}), recv_displs(std::vector<MPI_Aint>{0, 1}));
  const auto received = pending.wait();
  auto expected = emulated("MPI_Ineighbor_alltoallw", 4, 2, 2, cart_neighbors);
  expected = twin_or("MPI_Ineighbor_alltoallv_c", have_ineighbor_alltoallv_c, expected, cart_neighbors);
  expected["MPI_Wait"] = 1;
  CHECK(nampi_pmpi::snapshot() == expected);
  // From the left its one value for the right, from the right its rank + 1 values for the left.
  std::vector<int> both{10 * left + 1};
  both.insert(both.end(), static_cast<std::size_t>(right + 1), 10 * right);
  CHECK(received == both);
}

TEST_CASE("alltoallv_init with MPI_Count counts: built once, started twice") {
#if defined(NAMPI_HAVE_MPI_ALLTOALLV_INIT)
#if defined(NAMPI_HAVE_MPI_ALLTOALLV_INIT_C)
  constexpr bool have_twin = true;
#else
  constexpr bool have_twin = false;
#endif
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  std::vector<int> data = nampi_test::alltoallv_send(rank, size);
  nampi_pmpi_reset();
  {
    auto exchange = comm.alltoallv_init(
        send_buf(data), send_counts(widened<MPI_Count>(nampi_test::iota_counts(size))),
        send_displs(widened<MPI_Aint>(nampi_test::triangle_displs(size))),
        recv_counts(std::vector<MPI_Count>(static_cast<std::size_t>(size), rank + 1)),
        recv_displs(widened<MPI_Aint>(nampi_test::multiples(size, rank + 1))));
    for (int round = 0; round < 2; ++round) {
      for (int& x : data) x += round;  // read again at each start
      exchange.start();
      std::vector<int> expected = nampi_test::alltoallv_recv(rank, size);
      for (int& x : expected) x += round;
      CHECK(exchange.wait() == expected);
    }
  }
  auto expected =
      twin_or("MPI_Alltoallv_init_c", have_twin, emulated("MPI_Alltoallw_init", 2 * size, 2, 2));
  expected["MPI_Start"] = 2;
  expected["MPI_Wait"] = 2;
  expected["MPI_Request_free"] = 1;
  CHECK(nampi_pmpi::snapshot() == expected);
#else
  MESSAGE("this MPI has no persistent collectives");
#endif
}

TEST_CASE("a large count beside int counts arrays, without the _c function, is a usage error") {
#if !defined(NAMPI_HAVE_MPI_ALLGATHERV_C)
  nampi::Communicator comm;
  const std::vector<int> mine(1, comm.rank());
  const std::vector<int> counts(static_cast<std::size_t>(comm.size()), 1);
  // Elements of no bytes: 2^31 of them fit the one-int buffer (else the buffer check
  // would report the count first), so the call reaches its large-count decision.
  const auto nothing = nampi::datatype::contiguous(0, MPI_INT);
  nampi_pmpi_reset();
  // Rank-local, so no collective starts: the emulation must run on every rank or none.
  CHECK_THROWS_WITH_AS(comm.allgatherv(send_buf(mine), send_count(MPI_Count{INT_MAX} + 1),
                                       send_type(nothing), recv_counts(counts)),
                       doctest::Contains("allgatherv: send_count does not fit an int, and this "
                                         "MPI has no MPI_Allgatherv_c (an emulation that needs "
                                         "every rank to pass its counts and displacements as "
                                         "MPI_Count and MPI_Aint)"),
                       nampi::usage_error);
  CHECK(nampi_pmpi::snapshot() == call_counts{});
#else
  MESSAGE("this MPI has MPI_Allgatherv_c: the large count goes to it");
#endif
}

TEST_CASE("gatherv of 2^31 + 10 bytes from rank 1") {
  nampi::Communicator comm;
  if (comm.size() != 2) {
    MESSAGE("needs exactly 2 ranks (2 GiB buffers), skipped at np" << comm.size());
    return;
  }
  constexpr std::size_t big = (std::size_t{1} << 31) + 10;
  std::vector<char> mine;
  if (comm.rank() == 1) {
    mine.resize(big);
    for (std::size_t i = 0; i < big; i += 4093) mine[i] = static_cast<char>(i % 251);
    mine[big - 1] = 'z';
  }
  const std::vector<MPI_Count> counts{0, static_cast<MPI_Count>(big)};
  const std::vector<MPI_Aint> displs{0, 0};
  nampi_pmpi_reset();
  const auto all = comm.gatherv(send_buf(mine), recv_counts(counts), recv_displs(displs));
  // A block of more than INT_MAX elements is itself a large_count_type (vector, contiguous,
  // struct, 3 frees) before it is placed.
  call_counts expected = emulated("MPI_Alltoallw", 1, 1, comm.rank() == 0 ? 2 : 1);
  expected["MPI_Type_vector"] = 1;
  expected["MPI_Type_contiguous"] = 1;
  expected["MPI_Type_create_struct"] += 1;
  expected["MPI_Type_commit"] += 1;
  expected["MPI_Type_free"] += 3;
  CHECK(nampi_pmpi::snapshot() == twin_or("MPI_Gatherv_c", have_gatherv_c, expected));
  if (comm.rank() == 0) {
    REQUIRE(all.size() == big);
    bool same = all[big - 1] == 'z';
    for (std::size_t i = 0; i < big - 1 && same; i += 4093)
      same = all[i] == static_cast<char>(i % 251);
    CHECK(same);
  }
}
