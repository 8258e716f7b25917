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

// The same exchanges written with wait(): each round starts every task's receive and send,
// then waits for them task by task.
std::uint64_t with_wait(const nampi::Communicator& comm, int tasks, int rounds, std::size_t count) {
  const int rank = comm.rank(), size = comm.size();
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const auto n = static_cast<std::size_t>(tasks);
  std::vector<std::vector<int>> out(n, std::vector<int>(count)), in(n, std::vector<int>(count));
  using receive = decltype(comm.irecv(recv_buf(in[0]), recv_count(0), source(left), tag(0)));
  using send = decltype(comm.isend(send_buf(out[0]), dest(right), tag(0)));
  std::vector<receive> receives;
  std::vector<send> sends;
  receives.reserve(n);
  sends.reserve(n);
  std::uint64_t sum = 0;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t t = 0; t < n; ++t) {
      micro::fill(out[t], rank, static_cast<int>(t), r);
      receives.push_back(comm.irecv(recv_buf(in[t]), recv_count(static_cast<int>(count)),
                                    source(left), tag(static_cast<int>(t))));
      sends.push_back(comm.isend(send_buf(out[t]), dest(right), tag(static_cast<int>(t))));
    }
    for (std::size_t t = 0; t < n; ++t) {
      sends[t].wait();
      receives[t].wait();
      sum += micro::sample(in[t]);
    }
    receives.clear();
    sends.clear();
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  const micro::settings cfg{bench::args(argc, argv)};
  const int tasks = cfg.tasks, iters = cfg.iters, reps = cfg.reps;
  const std::size_t count = cfg.count;
  const bool tasks_at_once = cfg.tasks_at_once;
  const int size = world.size();
  nampi::scheduler scheduler;  // its arrays stay allocated from one repetition to the next
  std::uint64_t total = 0;

  double seconds = bench::measure(reps, [&] {
    if (!tasks_at_once) {
      total = with_wait(world, tasks, iters, count);
      return;
    }
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
