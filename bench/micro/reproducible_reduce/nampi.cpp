#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::reproducible_reduce> comm;
  bench::args args(argc, argv);
  const int n = static_cast<int>(args.get_int("n", 100000));
  const int iters = static_cast<int>(args.get_int("iters", 10));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const auto local = micro::part(comm.rank(), n);
  double sum = 0;
  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) sum = comm.reproducible_reduce(send_buf(local), op(std::plus<>{}));
  });
  bench::report("reproducible_reduce", "nampi", comm.size(), seconds / iters, micro::checksum(sum));
}
