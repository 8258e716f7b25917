// Small data generators shared by the generated call tests (spec/bindings/*.yaml
// fixtures) and the runtime tests. Rank r contributes r + 1 copies of r.
#pragma once

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <nampi/communicator.hpp>
#include <nampi/file.hpp>
#include <nampi/range_communicator.hpp>
#include <nampi/window.hpp>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace nampi_test {

// The MPI communicator, and the rank there, that reach rank `r` of `comm`, for fixtures that
// check a call with plain MPI: the communicator itself, or a range's parent.
inline MPI_Comm mpi_comm(const nampi::Communicator& comm) { return comm.mpi_communicator(); }
inline MPI_Comm mpi_comm(const nampi::RangeCommunicator& comm) {
  return comm.parent_communicator();
}
inline int mpi_rank(const nampi::Communicator&, int r) { return r; }

// A scratch file for a test of file calls: rank 0's temporary directory, a name with rank 0's
// pid and `tag` (told to every rank); removed when the test ends (after a barrier, once every
// rank closed it).
class scratch_path {
 public:
  scratch_path(const nampi::Communicator& comm, const char* tag) : comm_(comm.mpi_communicator()) {
    char name[512] = {};
    if (comm.rank() == 0) {
      const char* dir = std::getenv("TMPDIR");
      std::snprintf(name, sizeof name, "%s/nampi-test-%ld-%s", dir != nullptr ? dir : "/tmp",
                    static_cast<long>(getpid()), tag);
      std::remove(name);
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, comm_);
    name_ = name;
  }
  scratch_path(const scratch_path&) = delete;
  scratch_path& operator=(const scratch_path&) = delete;
  ~scratch_path() {
    MPI_Barrier(comm_);
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    if (rank == 0) std::remove(name_.c_str());
  }
  const std::string& name() const { return name_; }

 private:
  MPI_Comm comm_;
  std::string name_;
};

// Writes `values` as the whole file at `path` (rank 0, with plain MPI), before every rank goes on.
template <typename T>
void write_whole_file(const nampi::Communicator& comm, const std::string& path,
                      const std::vector<T>& values) {
  if (comm.rank() == 0) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                  &fh);
    MPI_File_write_at(fh, 0, values.data(), static_cast<int>(values.size() * sizeof(T)), MPI_BYTE,
                      MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
  }
  MPI_Barrier(comm.mpi_communicator());
}

// The whole file as elements of T, read by every rank with plain MPI once every rank's writes
// are visible (sync, barrier, sync); resets the file's view to bytes (collective).
template <typename T>
std::vector<T> read_whole_file(const nampi::File& file, const nampi::Communicator& comm) {
  MPI_File fh = file.mpi_file();
  MPI_File_sync(fh);
  MPI_Barrier(comm.mpi_communicator());
  MPI_File_sync(fh);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  MPI_Offset bytes = 0;
  MPI_File_get_size(fh, &bytes);
  std::vector<T> values(static_cast<std::size_t>(bytes) / sizeof(T));
  MPI_File_read_at(fh, 0, values.data(), static_cast<int>(values.size() * sizeof(T)), MPI_BYTE,
                   MPI_STATUS_IGNORE);
  return values;
}

inline std::vector<int> iota_ints(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Every rank's block {r, 10 r, 100 r}, in rank order (what the write tests write).
inline std::vector<int> blocks_of_three(int size) {
  std::vector<int> v;
  for (int r = 0; r < size; ++r) v.insert(v.end(), {r, 10 * r, 100 * r});
  return v;
}

// The blocks of three of `v`, sorted by their first element (blocks written in any order).
inline std::vector<int> sorted_blocks_of_three(const std::vector<int>& v) {
  std::vector<std::vector<int>> blocks;
  for (std::size_t i = 0; i + 3 <= v.size(); i += 3)
    blocks.emplace_back(v.begin() + i, v.begin() + i + 3);
  std::sort(blocks.begin(), blocks.end());
  std::vector<int> out;
  for (const auto& b : blocks) out.insert(out.end(), b.begin(), b.end());
  return out;
}

// A window's displacement unit, read with plain MPI (MPI_WIN_DISP_UNIT).
template <typename T>
int window_disp_unit(const nampi::Window<T>& win) {
  void* value = nullptr;
  int found = 0;
  MPI_Win_get_attr(win.mpi_window(), MPI_WIN_DISP_UNIT, &value, &found);
  return found != 0 ? *static_cast<int*>(value) : -1;
}
inline int mpi_rank(const nampi::RangeCommunicator& comm, int r) { return comm.parent_rank(r); }

// {1, 2, ..., size}: rank r sends r + 1 elements.
inline std::vector<int> iota_counts(int size) {
  std::vector<int> counts(size);
  for (int r = 0; r < size; ++r) counts[r] = r + 1;
  return counts;
}

// Exclusive prefix sum of iota_counts.
inline std::vector<int> triangle_displs(int size) {
  std::vector<int> displs(size);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + r;
  return displs;
}

// {0, 1, 1, 2, 2, 2, ...}: everyone's contribution, concatenated.
inline std::vector<int> staircase(int size) {
  std::vector<int> out;
  for (int r = 0; r < size; ++r) out.insert(out.end(), r + 1, r);
  return out;
}

}  // namespace nampi_test

namespace nampi_test {

// {0 x k, 1 x k, ..., size-1 x k}.
inline std::vector<int> repeat_each(int size, int k) {
  std::vector<int> out;
  for (int r = 0; r < size; ++r) out.insert(out.end(), k, r);
  return out;
}

// What rank `rank` sends in an alltoall with k elements per destination:
// k copies of 100 * rank + destination.
inline std::vector<int> alltoall_send(int rank, int size, int k) {
  std::vector<int> out;
  for (int d = 0; d < size; ++d) out.insert(out.end(), k, 100 * rank + d);
  return out;
}

// What rank `rank` receives in that alltoall: k copies of 100 * source + rank.
inline std::vector<int> alltoall_recv(int rank, int size, int k) {
  std::vector<int> out;
  for (int s = 0; s < size; ++s) out.insert(out.end(), k, 100 * s + rank);
  return out;
}

// alltoallv: rank r sends d + 1 copies of 100 * r + d to rank d.
inline std::vector<int> alltoallv_send(int rank, int size) {
  std::vector<int> out;
  for (int d = 0; d < size; ++d) out.insert(out.end(), d + 1, 100 * rank + d);
  return out;
}

// alltoallv: rank r receives r + 1 copies of 100 * s + r from every rank s.
inline std::vector<int> alltoallv_recv(int rank, int size) {
  return alltoall_recv(rank, size, rank + 1);
}

// Sum over ranks of (r + 1) * factor for every element i: (i + 1) * size * (size + 1) / 2.
inline std::vector<int> sum_of_ranks_plus_one(int size, int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = (i + 1) * size * (size + 1) / 2;
  return out;
}

// {i + 1} * (rank + 1) for i in [0, n): what rank `rank` contributes to the reductions.
inline std::vector<int> reduction_input(int rank, int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = (i + 1) * (rank + 1);
  return out;
}

// Inclusive prefix sum over ranks 0..rank of reduction_input.
inline std::vector<int> scan_of_inputs(int rank, int n) {
  return sum_of_ranks_plus_one(rank + 1, n);
}

}  // namespace nampi_test

namespace nampi_test {

// {0, k, 2k, ...}: size entries.
inline std::vector<int> multiples(int size, int k) {
  std::vector<int> out(size);
  for (int r = 0; r < size; ++r) out[r] = r * k;
  return out;
}

}  // namespace nampi_test

// ---------------------------------------------------------------- topologies
// Communicators with a topology for the neighbourhood collectives' tests, built
// with plain MPI (so that only the call under test is counted) and owned by a
// nampi::OwnedCommunicator. Each is a ring of all ranks, ranks unchanged: the in-
// and out-neighbours of rank r are {r - 1, r + 1} (mod size), in that order.

namespace nampi_test {

inline int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// A periodic 1-D cartesian grid.
inline nampi::OwnedCommunicator cart_ring() {
  const int dims[1] = {world_size()};
  const int periods[1] = {1};
  MPI_Comm ring = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  return nampi::OwnedCommunicator(ring);
}

// MPI_Graph_create's index and edges of the ring graph of `size` nodes.
inline std::vector<int> ring_graph_index(int size) {
  std::vector<int> index(size);
  for (int i = 0; i < size; ++i) index[i] = 2 * (i + 1);
  return index;
}
inline std::vector<int> ring_graph_edges(int size) {
  std::vector<int> edges;
  for (int i = 0; i < size; ++i) {
    edges.push_back((i + size - 1) % size);
    edges.push_back((i + 1) % size);
  }
  return edges;
}

// The ring as a graph topology (MPI_Graph_create).
inline nampi::OwnedCommunicator graph_ring() {
  const int size = world_size();
  const std::vector<int> index = ring_graph_index(size);
  const std::vector<int> edges = ring_graph_edges(size);
  MPI_Comm ring = MPI_COMM_NULL;
  MPI_Graph_create(MPI_COMM_WORLD, size, index.data(), edges.data(), 0, &ring);
  return nampi::OwnedCommunicator(ring);
}

// The ring as a distributed graph topology (MPI_Dist_graph_create_adjacent, unweighted).
inline nampi::OwnedCommunicator dist_graph_ring() {
  const int size = world_size();
  const int rank = world_rank();
  const int ring[2] = {(rank + size - 1) % size, (rank + 1) % size};
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, MPI_UNWEIGHTED, 2, ring, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &comm);
  return nampi::OwnedCommunicator(comm);
}

// What MPI_Dims_create gives for `size` processes in 2 dimensions (by hand, for 1..4).
inline std::vector<int> balanced_dims(int size) {
  static const std::map<int, std::vector<int>> dims{
      {1, {1, 1}}, {2, {2, 1}}, {3, {3, 1}}, {4, {2, 2}}};
  return dims.at(size);
}

// The 2-D grid of balanced_dims(world size), periodic along dimension 0 only, ranks
// unchanged: rank r sits at row r / dims[1], column r % dims[1].
inline nampi::OwnedCommunicator cart_grid() {
  const std::vector<int> dims = balanced_dims(world_size());
  const int periods[2] = {1, 0};
  MPI_Comm grid = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims.data(), periods, 0, &grid);
  return nampi::OwnedCommunicator(grid);
}

// This process's half of the world: the even world ranks or the odd ones, in their
// order there. Null on a one-rank world, which has no second half.
inline nampi::OwnedCommunicator world_half() {
  if (world_size() < 2) return nampi::OwnedCommunicator();
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half);
  return nampi::OwnedCommunicator(half);
}

// The intercommunicator between the two halves (leaders: world ranks 0 and 1), built
// with plain MPI; null on a one-rank world.
inline nampi::OwnedCommunicator halves_intercomm() {
  if (world_size() < 2) return nampi::OwnedCommunicator();
  MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - world_rank() % 2, 0, &inter);
  MPI_Comm_free(&half);
  return nampi::OwnedCommunicator(inter);
}

// MPI_Topo_test of a communicator: MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH or MPI_UNDEFINED.
inline int topology_of(const nampi::Communicator& comm) {
  int kind = MPI_UNDEFINED;
  MPI_Topo_test(comm.mpi_communicator(), &kind);
  return kind;
}

// The ranks size - 1, ..., 0: everyone, in reverse order.
inline std::vector<int> reversed_ranks(int size) {
  std::vector<int> ranks;
  for (int r = size - 1; r >= 0; --r) ranks.push_back(r);
  return ranks;
}

// MPI_Comm_compare of two communicators: MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL.
inline int compare(const nampi::Communicator& a, const nampi::Communicator& b) {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(a.mpi_communicator(), b.mpi_communicator(), &result);
  return result;
}

// A distributed graph's neighbours of this process (MPI_Dist_graph_neighbors).
struct dist_graph_neighbours {
  std::vector<int> sources;
  std::vector<int> destinations;
};
inline dist_graph_neighbours dist_graph_neighbours_of(const nampi::Communicator& comm) {
  int in = 0, out = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(comm.mpi_communicator(), &in, &out, &weighted);
  dist_graph_neighbours got{std::vector<int>(in), std::vector<int>(out)};
  std::vector<int> in_weights(in + 1), out_weights(out + 1);  // never null pointers
  MPI_Dist_graph_neighbors(comm.mpi_communicator(), in, got.sources.data(), in_weights.data(), out,
                           got.destinations.data(), out_weights.data());
  return got;
}

inline std::vector<int> sorted(std::vector<int> values) {
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace nampi_test
