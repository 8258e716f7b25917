#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  long long total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      total += comm.allreduce_single(send_buf(micro::value(comm.rank(), i)), op(std::plus<>{}));
    }
  });
  auto checksum = micro::check(total, comm.size(), iters);
  bench::report("allreduce_single", "nampi", comm.size(), seconds / iters, checksum);
}
