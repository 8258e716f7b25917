#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 16));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  auto local = micro::make_local(comm.rank(), n);
  auto counts = micro::make_counts(comm.size(), n);
  auto displs = micro::make_displs(counts);
  std::vector<int> all(static_cast<std::size_t>(displs.back() + counts.back()));

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      comm.allgatherv(send_buf(local), send_count(static_cast<int>(local.size())),
                      send_type(MPI_INT), recv_buf(all), recv_counts(counts), recv_displs(displs),
                      recv_type(MPI_INT));
    }
  });
  auto checksum = micro::check(all, comm.size(), n);
  bench::report("allgatherv_given", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
