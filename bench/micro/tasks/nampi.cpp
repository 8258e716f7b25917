#include <nampi/nampi.hpp>
#include <nampi/task.hpp>

#include "common.hpp"

using namespace nampi::params;

namespace {

// One task: `rounds` exchanges, each awaited (the send, then the receive).
nampi::task<std::uint64_t> exchanges(const nampi::Communicator& comm, int task, int rounds,
                                     std::size_t count) {
  const int rank = comm.rank(), size = comm.size();
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<int> out(count), in(count);
  std::uint64_t sum = 0;
  for (int r = 0; r < rounds; ++r) {
    micro::fill(out, rank, task, r);
    auto received =
        comm.irecv(recv_buf(in), recv_count(static_cast<int>(count)), source(left), tag(task));
    co_await comm.isend(send_buf(out), dest(right), tag(task));
    co_await received;
    sum += micro::sample(in);
  }
  co_return sum;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  bench::args args(argc, argv);
  const int tasks = static_cast<int>(args.get_int("tasks", 8));
  const auto count = static_cast<std::size_t>(args.get_int("count", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int size = world.size();
  nampi::scheduler scheduler;  // its arrays stay allocated from one repetition to the next
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    std::vector<nampi::task<std::uint64_t>> all;
    for (int t = 0; t < tasks; ++t) all.push_back(exchanges(world, t, iters, count));
    total = 0;
    for (const std::uint64_t sum : scheduler.run(std::move(all))) total += sum;
  });
  const int left = (world.rank() + size - 1) % size;
  bench::require(total == micro::expected(left, tasks, iters, count),
                 "tasks: wrong values received");
  bench::report("tasks", "nampi", size, seconds / (static_cast<double>(tasks) * iters), total);
}
