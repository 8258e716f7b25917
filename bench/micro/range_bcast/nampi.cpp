#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  bench::args args(argc, argv);
  const auto bytes = static_cast<std::size_t>(args.get_int("bytes", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int size = world.size();
  std::vector<unsigned char> data(bytes);
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      auto half = world.range(first(size / 2), last(size - 1));
      if (!half.contains_me()) continue;
      if (half.rank() == 0) micro::fill(data, i);
      half.bcast(send_recv_buf(data), send_recv_count(static_cast<int>(bytes)));
      total += micro::sample(data);
    }
  });
  if (world.rank() >= size / 2) micro::check(total, iters, bytes);
  bench::report("range_bcast", "nampi", size, seconds / iters, bench::hex(bytes));
}
