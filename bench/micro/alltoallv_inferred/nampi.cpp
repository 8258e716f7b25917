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
  auto data = micro::make_send(comm.rank(), comm.size(), n);
  auto counts = micro::make_counts(comm.rank(), comm.size(), n);
  std::vector<int> received;

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      received = comm.alltoallv(send_buf(data), send_counts(counts));
    }
  });
  auto checksum = micro::check(received, comm.rank(), comm.size(), n);
  bench::report("alltoallv_inferred", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
