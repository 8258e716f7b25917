#include <mpi.h>

#include "common.hpp"

// What one writes by hand: scan the send counts, exchange them, scan, allocate, exchange.
std::vector<int> alltoallv(const std::vector<int>& data, const std::vector<int>& send_counts,
                           MPI_Comm comm) {
  std::vector<int> send_displs(send_counts.size());
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::vector<int> recv_counts(send_counts.size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  std::vector<int> recv_displs(recv_counts.size());
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<int> received(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  MPI_Alltoallv(data.data(), send_counts.data(), send_displs.data(), MPI_INT, received.data(),
                recv_counts.data(), recv_displs.data(), MPI_INT, comm);
  return received;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  auto data = micro::make_send(rank, size, n);
  auto counts = micro::make_counts(rank, size, n);
  std::vector<int> received;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      received = alltoallv(data, counts, MPI_COMM_WORLD);
    }
  });
  auto checksum = micro::check(received, rank, size, n);
  bench::report("alltoallv_inferred", "mpi", size, seconds / iters, bench::hex(checksum));
  MPI_Finalize();
}
