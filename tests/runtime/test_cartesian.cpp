// The cartesian helpers (spec/bindings/topologies.yaml: cart_coords, cart_rank,
// cart_shift) beyond what the generated call tests check: every rank's
// coordinates, not only this one's; a round trip through cart_rank; wrapping
// along a periodic dimension; MPI_PROC_NULL past a non-periodic border; other
// displacements; and neighbours from cart_shift that really exchange data.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("cart_coords of every rank, and back with cart_rank") {
  nampi::Communicator world;
  const int size = world.size();
  const std::vector<int> grid_dims = nampi_test::balanced_dims(size);
  nampi::OwnedCommunicator grid = world.cart_create(dims(grid_dims));
  for (int r = 0; r < size; ++r) {
    // `rank` is also a common variable name: the factory is spelled qualified here.
    const std::vector<int> at = grid.cart_coords(nampi::params::rank(r));
    CHECK(at == std::vector<int>{r / grid_dims[1], r % grid_dims[1]});
    CHECK(grid.cart_rank(coords(at)) == r);
  }
  // This process's, asked back into a caller's vector (resized to the grid's 2 dimensions).
  std::vector<int> mine(5, -1);
  grid.cart_coords(coords_out(mine));
  CHECK(mine == std::vector<int>{grid.rank() / grid_dims[1], grid.rank() % grid_dims[1]});
  // maxdims given: MPI writes that many (at least the grid's dimensions; fewer is MPI's error).
  CHECK(grid.cart_coords(maxdims(2)) == mine);
}

TEST_CASE("cart_rank wraps around a periodic dimension") {
  nampi::OwnedCommunicator grid = nampi_test::cart_grid();  // periodic along dimension 0
  const std::vector<int> grid_dims = nampi_test::balanced_dims(grid.size());
  const int row = grid.rank() / grid_dims[1], column = grid.rank() % grid_dims[1];
  CHECK(grid.cart_rank(coords(std::vector<int>{row + grid_dims[0], column})) == grid.rank());
  CHECK(grid.cart_rank(coords(std::vector<int>{row - grid_dims[0], column})) == grid.rank());
  int found = -1;
  grid.cart_rank(coords(std::vector<int>{row + 2 * grid_dims[0], column}), rank_out(found));
  CHECK(found == grid.rank());
}

TEST_CASE("cart_shift: MPI_PROC_NULL past a non-periodic border, wrapping on a periodic one") {
  nampi::OwnedCommunicator grid = nampi_test::cart_grid();
  const std::vector<int> grid_dims = nampi_test::balanced_dims(grid.size());
  const int row = grid.rank() / grid_dims[1], column = grid.rank() % grid_dims[1];

  // Dimension 1 is not periodic: the first column has no source, the last no destination.
  auto [source, dest] = grid.cart_shift(direction(1));
  CHECK(source == (column == 0 ? MPI_PROC_NULL : grid.rank() - 1));
  CHECK(dest == (column == grid_dims[1] - 1 ? MPI_PROC_NULL : grid.rank() + 1));

  // Dimension 0 wraps; a negative displacement swaps source and destination.
  const int up = (row + grid_dims[0] - 1) % grid_dims[0] * grid_dims[1] + column;
  const int down = (row + 1) % grid_dims[0] * grid_dims[1] + column;
  auto [from, to] = grid.cart_shift(direction(0), disp(-1));
  CHECK(from == down);
  CHECK(to == up);
  // Two steps along dimension 0, asking for the destination only.
  int two_down = -1;
  const int two_up = grid.cart_shift(direction(0), disp(2), rank_dest_out(two_down));
  CHECK(two_up == (row + 2 * grid_dims[0] - 2) % grid_dims[0] * grid_dims[1] + column);
  CHECK(two_down == (row + 2) % grid_dims[0] * grid_dims[1] + column);
}

TEST_CASE("cart_shift's neighbours exchange data around a periodic ring") {
  nampi::OwnedCommunicator ring = nampi_test::cart_ring();
  const int size = ring.size();
  auto [source, dest] = ring.cart_shift(direction(0));
  CHECK(source == (ring.rank() + size - 1) % size);
  CHECK(dest == (ring.rank() + 1) % size);
  // Each rank sends its rank up the ring and receives its predecessor's.
  const std::vector<int> mine{ring.rank(), 10 * ring.rank()};
  const std::vector<int> got = ring.sendrecv(send_buf(mine), nampi::params::dest(dest),
                                             nampi::params::source(source), recv_count(2));
  CHECK(got == std::vector<int>{source, 10 * source});
}
