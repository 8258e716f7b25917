// Misuse: the weights of the edges in but not of the edges out.
// expect-error: nampi: dist_graph_create_adjacent: give 'source_weights', 'dest_weights' together,
// or none of them
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::vector<int> ring{(comm.rank() + comm.size() - 1) % comm.size(),
                              (comm.rank() + 1) % comm.size()};
  const std::vector<int> weights{1, 1};
  auto graph =
      comm.dist_graph_create_adjacent(sources(ring), destinations(ring), source_weights(weights));
}
