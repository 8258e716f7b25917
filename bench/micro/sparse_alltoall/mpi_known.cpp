// The sparse pattern when every rank knows who sends to it: one MPI_Irecv per source and one
// MPI_Isend per destination, then MPI_Waitall (what MPI_Neighbor_alltoallv does inside, and
// what runs where MPI has no distributed graph communicators: SimGrid's SMPI). The sparse
// all-to-all does not assume this knowledge; bench/scale/run.py runs it as the lower bound.
#include <mpi.h>

#include "common.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int peers = micro::peers_of(args, size);
  const std::vector<int> to = micro::destinations(rank, size, peers);
  const std::vector<int> from = micro::sources(rank, size, peers);
  std::vector<std::vector<int>> out;
  for (int d : to) out.push_back(micro::message(rank, d, n));
  std::vector<int> received(from.size() * static_cast<std::size_t>(n));
  std::vector<MPI_Request> requests(to.size() + from.size(), MPI_REQUEST_NULL);

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      std::size_t k = 0;
      for (std::size_t s = 0; s < from.size(); ++s)
        MPI_Irecv(received.data() + s * static_cast<std::size_t>(n), n, MPI_INT, from[s], 0,
                  MPI_COMM_WORLD, &requests[k++]);
      for (std::size_t d = 0; d < to.size(); ++d)
        MPI_Isend(out[d].data(), n, MPI_INT, to[d], 0, MPI_COMM_WORLD, &requests[k++]);
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
  });
  auto checksum = micro::check(received, rank, size, n, peers);
  bench::report("sparse_alltoall", "mpi_known", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
