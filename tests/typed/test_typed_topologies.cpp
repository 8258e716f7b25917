// nampi::mpi process topologies (cartesian, graph, distributed graph): the neighbours MPI
// computes for 1..4 ranks and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/topologies.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
int world_rank() { return mpi::comm_rank(mpi::comm_world()); }
int world_size() { return mpi::comm_size(mpi::comm_world()); }
}  // namespace

TEST_CASE("dims_create balances the world over two dimensions") {
  const int size = world_size();
  std::vector<int> dims{0, 0};
  nampi_pmpi_reset();
  mpi::dims_create(size, dims);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Dims_create", 1}});
  const std::map<int, std::vector<int>> expected{
      {1, {1, 1}}, {2, {2, 1}}, {3, {3, 1}}, {4, {2, 2}}};
  CHECK(dims == expected.at(size));
}

TEST_CASE("cart_create (periodic rows): coords, rank, shift, sub, get, topo_test") {
  const int size = world_size();
  const int rank = world_rank();
  std::vector<int> dims{0, 0};
  mpi::dims_create(size, dims);
  const std::vector<int> periods{1, 0};
  const std::vector<int> coords{rank / dims[1], rank % dims[1]};  // row-major
  nampi_pmpi_reset();
  {
    mpi::unique_comm cart = mpi::cart_create(mpi::comm_world(), dims, periods, false);
    CHECK(mpi::topo_test(cart) == MPI_CART);
    CHECK(mpi::cartdim_get(cart) == 2);
    const mpi::cart_get_result got = mpi::cart_get(cart, 2);
    CHECK(got.dims == dims);
    CHECK(got.periods == periods);
    CHECK(got.coords == coords);
    CHECK(mpi::cart_coords(cart, rank, 2) == coords);
    CHECK(mpi::cart_rank(cart, coords) == rank);

    // Dimension 0 wraps around; dimension 1 ends in MPI_PROC_NULL.
    const mpi::cart_shift_result down = mpi::cart_shift(cart, 0, 1);
    const int up_row = (coords[0] + dims[0] - 1) % dims[0];
    const int down_row = (coords[0] + 1) % dims[0];
    CHECK(down.rank_source == up_row * dims[1] + coords[1]);
    CHECK(down.rank_dest == down_row * dims[1] + coords[1]);
    const mpi::cart_shift_result right = mpi::cart_shift(cart, 1, 1);
    CHECK(right.rank_source == (coords[1] == 0 ? MPI_PROC_NULL : rank - 1));
    CHECK(right.rank_dest == (coords[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1));

    const std::vector<int> keep_columns{0, 1};
    mpi::unique_comm row = mpi::cart_sub(cart, keep_columns);
    CHECK(mpi::comm_size(row) == dims[1]);
    CHECK(mpi::comm_rank(row) == coords[1]);
    CHECK(mpi::cartdim_get(row) == 1);

    const int mapped = mpi::cart_map(mpi::comm_world(), dims, periods);
    CHECK(mapped >= 0);
    CHECK(mapped < size);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Cart_coords", 1},
                                              {"MPI_Cart_create", 1},
                                              {"MPI_Cart_get", 1},
                                              {"MPI_Cart_map", 1},
                                              {"MPI_Cart_rank", 1},
                                              {"MPI_Cart_shift", 2},
                                              {"MPI_Cart_sub", 1},
                                              {"MPI_Cartdim_get", 2},
                                              {"MPI_Comm_free", 2},
                                              {"MPI_Comm_rank", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Finalized", 2},
                                              {"MPI_Topo_test", 1}});
}

TEST_CASE("graph_create: a star around rank 0; dims, get, neighbours, topo_test, graph_map") {
  const int size = world_size();
  const int rank = world_rank();
  // Node 0 links to every other node, each other node links back to 0.
  std::vector<int> index;
  std::vector<int> edges;
  for (int i = 1; i < size; ++i) edges.push_back(i);
  index.push_back(size - 1);
  for (int i = 1; i < size; ++i) {
    edges.push_back(0);
    index.push_back(index.back() + 1);
  }
  std::vector<int> my_neighbours;
  if (rank == 0)
    for (int i = 1; i < size; ++i) my_neighbours.push_back(i);
  else
    my_neighbours.push_back(0);
  const int nedges = 2 * (size - 1);
  int dummy_edge = 0;  // MPI reads no edge of a one-node graph, but wants a valid pointer
  const std::span<const int> edge_span =
      edges.empty() ? std::span<const int>(&dummy_edge, 0) : std::span<const int>(edges);
  nampi_pmpi_reset();
  {
    mpi::unique_comm star = mpi::graph_create(mpi::comm_world(), index, edge_span, false);
    CHECK(mpi::topo_test(star) == MPI_GRAPH);
    const mpi::graphdims_get_result dims = mpi::graphdims_get(star);
    CHECK(dims.nnodes == size);
    CHECK(dims.nedges == nedges);
    const mpi::graph_get_result got = mpi::graph_get(star, size, nedges);
    CHECK(got.index == index);
    CHECK(got.edges == edges);
    const int count = mpi::graph_neighbors_count(star, rank);
    CHECK(count == static_cast<int>(my_neighbours.size()));
    CHECK(mpi::graph_neighbors(star, rank, count) == my_neighbours);
    const int mapped = mpi::graph_map(mpi::comm_world(), index, edge_span);
    CHECK(mapped >= 0);
    CHECK(mapped < size);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_free", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Graph_create", 1},
                                              {"MPI_Graph_get", 1},
                                              {"MPI_Graph_map", 1},
                                              {"MPI_Graph_neighbors", 1},
                                              {"MPI_Graph_neighbors_count", 1},
                                              {"MPI_Graphdims_get", 1},
                                              {"MPI_Topo_test", 1}});
}

TEST_CASE("dist_graph_create_adjacent: a weighted ring; neighbours and weights come back") {
  const int size = world_size();
  const int rank = world_rank();
  const std::vector<int> sources{(rank + size - 1) % size};
  const std::vector<int> source_weights{100 + sources[0]};
  const std::vector<int> destinations{(rank + 1) % size};
  const std::vector<int> dest_weights{100 + rank};  // the weight my successor expects from me
  nampi_pmpi_reset();
  {
    mpi::unique_comm ring = mpi::dist_graph_create_adjacent(
        mpi::comm_world(), sources, source_weights, destinations, dest_weights, mpi::info(), false);
    CHECK(mpi::topo_test(ring) == MPI_DIST_GRAPH);
    const mpi::dist_graph_neighbors_count_result count = mpi::dist_graph_neighbors_count(ring);
    CHECK(count.indegree == 1);
    CHECK(count.outdegree == 1);
    CHECK(count.weighted);
    std::vector<int> in_weights(1), out_weights(1);
    const mpi::dist_graph_neighbors_result got =
        mpi::dist_graph_neighbors(ring, 1, in_weights, 1, out_weights);
    CHECK(got.sources == sources);
    CHECK(got.destinations == destinations);
    CHECK(in_weights == source_weights);
    CHECK(out_weights == dest_weights);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_free", 1},
                                              {"MPI_Dist_graph_create_adjacent", 1},
                                              {"MPI_Dist_graph_neighbors", 1},
                                              {"MPI_Dist_graph_neighbors_count", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Topo_test", 1}});
}

TEST_CASE("dist_graph_create: rank 0 describes the whole ring; each rank sees its neighbours") {
  const int size = world_size();
  const int rank = world_rank();
  // Rank 0 gives every edge i -> i+1; the other ranks give none.
  std::vector<int> sources, degrees, destinations;
  if (rank == 0)
    for (int i = 0; i < size; ++i) {
      sources.push_back(i);
      degrees.push_back(1);
      destinations.push_back((i + 1) % size);
    }
  // Weights are arrays of unknown length ("*"): MPI_UNWEIGHTED goes in as a span of no elements.
  const std::span<const int> unweighted(MPI_UNWEIGHTED, 0);
  nampi_pmpi_reset();
  {
    mpi::unique_comm ring = mpi::dist_graph_create(mpi::comm_world(), sources, degrees,
                                                   destinations, unweighted, mpi::info(), false);
    const mpi::dist_graph_neighbors_count_result count = mpi::dist_graph_neighbors_count(ring);
    CHECK(count.indegree == 1);
    CHECK(count.outdegree == 1);
    CHECK_FALSE(count.weighted);
    const std::span<int> ignored(MPI_UNWEIGHTED, 0);
    const mpi::dist_graph_neighbors_result got =
        mpi::dist_graph_neighbors(ring, 1, ignored, 1, ignored);
    CHECK(got.sources == std::vector<int>{(rank + size - 1) % size});
    CHECK(got.destinations == std::vector<int>{(rank + 1) % size});
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_free", 1},
                                              {"MPI_Dist_graph_create", 1},
                                              {"MPI_Dist_graph_neighbors", 1},
                                              {"MPI_Dist_graph_neighbors_count", 1},
                                              {"MPI_Finalized", 1}});
}
