#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  bench::args args(argc, argv);
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int size = world.size();
  long long total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      const int n = micro::opaque(size);
      const bool lower = micro::half_of(world.rank(), n) == 0;
      auto half =
          lower ? world.range(first(0), last(n / 2 - 1)) : world.range(first(n / 2), last(n - 1));
      total += half.rank() + 2 * half.size();
    }
  });
  auto checksum = micro::check(total, world.rank(), size, iters);
  bench::report("range_split", "nampi", size, seconds / iters, checksum);
}
