// Topologies made by the named-parameter constructors, and neighbourhood
// collectives on them with counts inferred from the topology: a 2-D cartesian
// grid (periodic in dimension 0 only, so that some neighbours are
// MPI_PROC_NULL) and a weighted distributed graph whose processes have
// different numbers of in- and out-neighbours. Expected data by hand.
// (The generated tests run each call on 1-D rings and count its MPI calls.)
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <string>
#include <utility>
#include <vector>

#include "nampi_mpi_library.hpp"
#include "nampi_test_support.hpp"
#include "nampi_usage_error_check.hpp"

using namespace nampi::params;

namespace {

// Row-major coordinates of a rank in a grid of `dims`.
std::vector<int> coords_of(int rank, const std::vector<int>& dims) {
  return {rank / dims[1], rank % dims[1]};
}

// The neighbours of `rank` in MPI's order for a cartesian topology: for each
// dimension, the one before (-1) and the one after (+1). Dimension 0 wraps
// around; dimension 1 ends in MPI_PROC_NULL.
std::vector<int> grid_neighbours(int rank, const std::vector<int>& dims) {
  const std::vector<int> c = coords_of(rank, dims);
  const auto at = [&](int row, int column) { return row * dims[1] + column; };
  return {at((c[0] + dims[0] - 1) % dims[0], c[1]), at((c[0] + 1) % dims[0], c[1]),
          c[1] > 0 ? at(c[0], c[1] - 1) : MPI_PROC_NULL,
          c[1] < dims[1] - 1 ? at(c[0], c[1] + 1) : MPI_PROC_NULL};
}

// Which out-block of a neighbour reaches me: what the neighbour before me in a
// dimension sends forward (its block 2d + 1), and the other way round.
int mirrored(int block) { return block ^ 1; }

// In a periodic dimension of 1 or 2 processes, a process's neighbour before and after are
// the same process, and MPI-4.1 section 8.6 (an erratum to MPI-3.1 since MPI-4.0,
// mpi-forum/mpi-issues#153) still wants block s of the sender in block s ^ 1 of the receiver.
// Known deviation, Open MPI (4.1 and 5.0.x; fixed on main by open-mpi/ompi#14416): its
// nonblocking and persistent neighbourhood alltoalls (coll/libnbc) deliver block s in block s;
// the blocking ones are right. Probed with plain MPI on a periodic grid of MPI_COMM_SELF (its
// only process is both its neighbours); any other result fails the calling test.
bool nonblocking_cart_blocks_unswapped() {
  const int dims[1] = {1};
  const int periods[1] = {1};
  MPI_Comm self_ring = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_SELF, 1, dims, periods, 0, &self_ring);
  // The call the test below makes (Open MPI 4.1 swaps the blocks of MPI_Ineighbor_alltoall
  // as it should, but not those of MPI_Ineighbor_alltoallv).
  const int send[2] = {0, 1};
  int recv[2] = {-1, -1};
  const int counts[2] = {1, 1};
  const int displs[2] = {0, 1};
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ineighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, self_ring,
                          &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Comm_free(&self_ring);
  if (recv[0] == 1 && recv[1] == 0) return false;  // as the standard says
  // MPICH 4.0.x (Debian 12) predates the erratum in the same way (found by CI on MPICH 4.0.2).
  const bool known = recv[0] == 0 && recv[1] == 1 &&
                     (!nampi_test::openmpi_release().empty() || nampi_test::is_mpich_4_0());
  CHECK_MESSAGE(known, "MPI_Ineighbor_alltoallv on a periodic grid of one process received {"
                           << recv[0] << ", " << recv[1] << "} for {0, 1}");
  if (known)
    MESSAGE("MPI library " << nampi_test::openmpi_release() << nampi_test::mpich_release()
                           << " deviates from the MPI standard: its nonblocking neighbourhood "
                              "alltoalls do not swap the blocks of a periodic dimension of 1 or 2 "
                              "processes");
  return known;
}


}  // namespace

TEST_CASE("cart_create: 2-D grid from ndims, dims asked back; neighbour calls on it") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  auto [grid, dims] =
      world.cart_create(ndims(2), periods(std::vector<int>{1, 0}), dims_out(), reorder(false));
  REQUIRE(dims == nampi_test::balanced_dims(size));
  REQUIRE(nampi_test::topology_of(grid) == MPI_CART);
  CHECK(grid.rank() == rank);
  CHECK(grid.size() == size);
  const std::vector<int> neighbours = grid_neighbours(rank, dims);

  SUBCASE("neighbor_allgather: receive buffer sized for the 4 neighbours") {
    std::vector<int> got(4, -1);  // MPI_PROC_NULL neighbours leave their block alone
    grid.neighbor_allgather(send_buf(rank), recv_buf(got));
    std::vector<int> expected;
    for (int n : neighbours) expected.push_back(n == MPI_PROC_NULL ? -1 : n);
    CHECK(got == expected);

    // Created by the call: 2 elements from each of the 4 neighbours.
    const std::vector<int> two{rank, rank};
    const std::vector<int> created = grid.neighbor_allgather(send_buf(two));
    REQUIRE(created.size() == 8);
    for (int j = 0; j < 4; ++j) {
      const int from = neighbours[j] == MPI_PROC_NULL ? 0 : neighbours[j];  // created: zeros
      CHECK(created[2 * j] == from);
      CHECK(created[2 * j + 1] == from);
    }
  }

  SUBCASE("neighbor_alltoall: send_count inferred from the 4 out-neighbours") {
    std::vector<int> data(4);
    for (int j = 0; j < 4; ++j) data[j] = 10 * rank + j;
    std::vector<int> got(4, -1);
    grid.neighbor_alltoall(send_buf(data), recv_buf(got));
    for (int j = 0; j < 4; ++j)
      CHECK(got[j] == (neighbours[j] == MPI_PROC_NULL ? -1 : 10 * neighbours[j] + mirrored(j)));
  }

  SUBCASE("ineighbor_alltoallv: receive counts exchanged, wait() returns the data") {
    // Dimension 0 is periodic; with 1 or 2 processes it meets the deviation above (the
    // counts, exchanged by a blocking MPI_Neighbor_alltoall, would not match the blocks).
    // On Open MPI the outcome is not even stable: with both neighbours the same process,
    // which block lands where depends on message matching order (a CI run on Open MPI 4.1
    // got the standard layout from the probe's MPI_Ineighbor_alltoall, then not from this
    // call), so there the check runs only on grids whose dimension 0 has 3 or more processes.
    const bool unswapped = nonblocking_cart_blocks_unswapped();
    if (dims[0] <= 2 && (unswapped || !nampi_test::openmpi_release().empty())) return;
    // rank + j + 1 copies of 10 * rank + j for out-neighbour j.
    std::vector<int> counts(4), data;
    for (int j = 0; j < 4; ++j) {
      counts[j] = rank + j + 1;
      data.insert(data.end(), counts[j], 10 * rank + j);
    }
    auto pending = grid.ineighbor_alltoallv(send_buf(data), send_counts(counts), recv_counts_out());
    auto [got, got_counts] = pending.wait();
    std::vector<int> expected, expected_counts;
    for (int j = 0; j < 4; ++j) {
      const int from = neighbours[j];
      const int count = from == MPI_PROC_NULL ? 0 : from + mirrored(j) + 1;
      expected_counts.push_back(count);
      expected.insert(expected.end(), count, 10 * from + mirrored(j));
    }
    CHECK(got_counts == expected_counts);
    CHECK(got == expected);
  }
}

TEST_CASE("cart_create: ranks outside the grid get a null communicator") {
  nampi::Communicator world;
  nampi::OwnedCommunicator first = world.cart_create(dims(std::vector<int>{1}));
  if (world.rank() == 0) {
    CHECK_FALSE(first.is_null());
    CHECK(first.size() == 1);
    CHECK(first.rank() == 0);
  } else {
    CHECK(first.is_null());
    CHECK(first.size() == 0);
    CHECK(first.rank() == MPI_UNDEFINED);
    CHECK(first.mpi_communicator() == MPI_COMM_NULL);
  }
}

TEST_CASE("OwnedCommunicator: moves, views, release") {
  nampi::Communicator world;
  nampi::OwnedCommunicator ring = world.cart_create(ndims(1), periods(std::vector<int>{1}));
  const MPI_Comm handle = ring.mpi_communicator();
  REQUIRE(handle != MPI_COMM_NULL);

  nampi::OwnedCommunicator moved(std::move(ring));
  CHECK(ring.is_null());  // NOLINT(bugprone-use-after-move): a moved-from owner is null
  CHECK(moved.mpi_communicator() == handle);
  CHECK(moved.rank() == world.rank());

  const nampi::Communicator view = moved;  // a view of an lvalue owner: fine
  CHECK(view.mpi_communicator() == handle);
  CHECK(view.neighbor_allgather(send_buf(world.rank())).size() == 2);

  nampi::OwnedCommunicator other;
  other = std::move(moved);
  CHECK(moved.is_null());  // NOLINT(bugprone-use-after-move)
  MPI_Comm released = other.release();
  CHECK(released == handle);
  CHECK(other.is_null());
  CHECK(MPI_Comm_free(&released) == MPI_SUCCESS);

  // A predefined communicator is used but never freed.
  {
    const nampi::OwnedCommunicator self(MPI_COMM_SELF);
  }
  int self_size = 0;
  CHECK(MPI_Comm_size(MPI_COMM_SELF, &self_size) == MPI_SUCCESS);
  CHECK(self_size == 1);
}

TEST_CASE("dist_graph_create_adjacent: every lower rank -> every higher rank, weighted") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  // In-neighbours: 0 .. rank-1; out-neighbours: rank+1 .. size-1 (rank 0 has no
  // source, the last rank no destination; one rank alone has neither).
  std::vector<int> from, to, from_weights, to_weights;
  for (int s = 0; s < rank; ++s) {
    from.push_back(s);
    from_weights.push_back(100 * s + rank);
  }
  for (int d = rank + 1; d < size; ++d) {
    to.push_back(d);
    to_weights.push_back(100 * rank + d);
  }
  nampi::OwnedCommunicator graph = world.dist_graph_create_adjacent(
      sources(from), destinations(to), source_weights(from_weights), dest_weights(to_weights));
  REQUIRE(nampi_test::topology_of(graph) == MPI_DIST_GRAPH);
  int in = -1, out = -1, weighted = -1;
  MPI_Dist_graph_neighbors_count(graph.mpi_communicator(), &in, &out, &weighted);
  CHECK(in == rank);
  CHECK(out == size - 1 - rank);
  CHECK(weighted != 0);
  std::vector<int> got_from(in + 1), got_to(out + 1), got_from_w(in + 1), got_to_w(out + 1);
  MPI_Dist_graph_neighbors(graph.mpi_communicator(), in, got_from.data(), got_from_w.data(), out,
                           got_to.data(), got_to_w.data());
  got_from.resize(in);
  got_to.resize(out);
  got_from_w.resize(in);
  got_to_w.resize(out);
  CHECK(got_from == from);
  CHECK(got_to == to);
  CHECK(got_from_w == from_weights);
  CHECK(got_to_w == to_weights);

  SUBCASE("neighbor_allgatherv: counts from the rank in-neighbours") {
    const std::vector<int> data(rank + 1, rank);
    auto [got, counts, displs] =
        graph.neighbor_allgatherv(send_buf(data), recv_counts_out(), recv_displs_out());
    CHECK(got == nampi_test::staircase(rank));  // 0 once, 1 twice, ... from sources 0 .. rank-1
    CHECK(counts == nampi_test::iota_counts(rank));
    CHECK(displs == nampi_test::triangle_displs(rank));
  }

  SUBCASE("neighbor_alltoall: send_count given (out-degrees differ), receive buffer by in-degree") {
    std::vector<int> data;
    for (int d : to) data.insert(data.end(), 2, 100 * rank + d);
    const std::vector<int> got = graph.neighbor_alltoall(send_buf(data), send_count(2));
    std::vector<int> expected;
    for (int s : from) expected.insert(expected.end(), 2, 100 * s + rank);
    CHECK(got == expected);
  }

  SUBCASE("neighbor_alltoallv: receive counts by a neighbour alltoall") {
    std::vector<int> counts, data;
    for (int d : to) {
      counts.push_back(rank + d + 1);
      data.insert(data.end(), rank + d + 1, 100 * rank + d);
    }
    const std::vector<int> got = graph.neighbor_alltoallv(send_buf(data), send_counts(counts));
    std::vector<int> expected;
    for (int s : from) expected.insert(expected.end(), s + rank + 1, 100 * s + rank);
    CHECK(got == expected);
  }

  SUBCASE("ineighbor_allgather: one value from every in-neighbour") {
    auto pending = graph.ineighbor_allgather(send_buf(rank));
    CHECK(pending.wait() == from);
  }
}

TEST_CASE("graph_create and dist_graph_create: the ring, then a neighbour allgather on it") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;

  nampi::OwnedCommunicator graph =
      world.graph_create(graph_index(nampi_test::ring_graph_index(size)),
                         graph_edges(nampi_test::ring_graph_edges(size)));
  CHECK(graph.neighbor_allgather(send_buf(rank)) == std::vector<int>{left, right});

  // Rank 0 gives every edge i -> i + 1; the others give none.
  std::vector<int> from, degree, to;
  if (rank == 0)
    for (int i = 0; i < size; ++i) {
      from.push_back(i);
      degree.push_back(1);
      to.push_back((i + 1) % size);
    }
  nampi::OwnedCommunicator ring =
      world.dist_graph_create(sources(from), degrees(degree), destinations(to));
  CHECK(ring.neighbor_allgather(send_buf(rank)) == std::vector<int>{left});
}

TEST_CASE("neighbourhood calls need a topology; send_counts one per out-neighbour") {
  if (NAMPI_ASSERTION_LEVEL == 0) return;  // usage checks are off (NDEBUG)
  nampi::Communicator world;
  const int rank = world.rank();
  const std::string message =
      usage_error_message([&] { (void)world.neighbor_allgather(send_buf(rank)); });
  CHECK(message.find("neighbor_allgather: the communicator has no topology") != std::string::npos);

  nampi::OwnedCommunicator ring = nampi_test::cart_ring();  // 2 out-neighbours
  const std::vector<int> data(3, rank);
  const std::string counts = usage_error_message([&] {
    (void)ring.neighbor_alltoallv(send_buf(data), send_counts(std::vector<int>{1}));
  });
  CHECK(counts.find("neighbor_alltoallv: 'send_counts' holds 1 entry, one per out-neighbour (2) "
                    "needed") != std::string::npos);
  // A longer array is read as far as the neighbours go, as a per-rank one is.
  const int size = ring.size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  CHECK(ring.neighbor_alltoallv(send_buf(data), send_counts(std::vector<int>{1, 1, 1})) ==
        std::vector<int>{left, right});
}
