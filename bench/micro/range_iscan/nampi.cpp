#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  bench::args args(argc, argv);
  const auto count = static_cast<std::size_t>(args.get_int("count", 1));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int rank = world.rank();
  auto all = world.range(first(0), last(world.size() - 1));
  std::vector<std::int64_t> mine(count), prefix(count);
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    total = 0;
    for (int i = 0; i < iters; ++i) {
      micro::fill(mine, rank, i);
      all.iscan(send_buf(mine), op(std::plus<>{}), recv_buf(prefix)).wait();
      total += micro::check(prefix, rank, i);
    }
  });
  bench::report("range_iscan", "nampi", world.size(), seconds / iters, total);
}
