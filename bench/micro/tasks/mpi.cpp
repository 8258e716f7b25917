// how=task: the tasks written by hand on MPI_Waitsome: each task is a state (its round, its
// two requests); one MPI_Waitsome over all tasks' requests completes what it can, and a task
// whose two requests have completed posts its next round.
// how=wait: each round posts every task's receive and send, then waits for them task by task
// (MPI_Wait), as nampi.cpp's wait() version does.
#include <mpi.h>

#include "common.hpp"

namespace {

struct task_state {
  int round = 0;
  int pending = 0;
  std::vector<int> out, in;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const micro::settings cfg{bench::args(argc, argv)};
  const int tasks = cfg.tasks, iters = cfg.iters, reps = cfg.reps;
  const std::size_t count = cfg.count;
  const bool tasks_at_once = cfg.tasks_at_once;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<task_state> state(static_cast<std::size_t>(tasks));
  std::vector<MPI_Request> requests(2 * state.size(), MPI_REQUEST_NULL);  // 2t: recv, 2t+1: send
  std::vector<int> done(requests.size());
  std::uint64_t total = 0;

  auto post = [&](int t) {
    task_state& s = state[static_cast<std::size_t>(t)];
    micro::fill(s.out, rank, t, s.round);
    MPI_Irecv(s.in.data(), static_cast<int>(count), MPI_INT, left, t, MPI_COMM_WORLD,
              &requests[2 * static_cast<std::size_t>(t)]);
    MPI_Isend(s.out.data(), static_cast<int>(count), MPI_INT, right, t, MPI_COMM_WORLD,
              &requests[2 * static_cast<std::size_t>(t) + 1]);
    s.pending = 2;
  };

  auto with_wait = [&] {
    for (int r = 0; r < iters; ++r) {
      for (int t = 0; t < tasks; ++t) {
        task_state& s = state[static_cast<std::size_t>(t)];
        s.round = r;
        post(t);
      }
      for (int t = 0; t < tasks; ++t) {
        const auto i = static_cast<std::size_t>(t);
        MPI_Wait(&requests[2 * i + 1], MPI_STATUS_IGNORE);
        MPI_Wait(&requests[2 * i], MPI_STATUS_IGNORE);
        total += micro::sample(state[i].in);
      }
    }
  };

  double seconds = bench::measure(reps, [&] {
    total = 0;
    if (!tasks_at_once) {
      for (task_state& s : state)
        s = task_state{0, 0, std::vector<int>(count), std::vector<int>(count)};
      with_wait();
      return;
    }
    for (int t = 0; t < tasks; ++t) {
      task_state& s = state[static_cast<std::size_t>(t)];
      s = task_state{0, 0, std::vector<int>(count), std::vector<int>(count)};
      post(t);
    }
    int active = tasks;
    while (active > 0) {
      int completed = 0;
      MPI_Waitsome(static_cast<int>(requests.size()), requests.data(), &completed, done.data(),
                   MPI_STATUSES_IGNORE);
      for (int k = 0; k < completed; ++k) {
        const int t = done[static_cast<std::size_t>(k)] / 2;
        task_state& s = state[static_cast<std::size_t>(t)];
        if (--s.pending != 0) continue;
        total += micro::sample(s.in);
        if (++s.round < iters)
          post(t);
        else
          --active;
      }
    }
  });
  bench::require(total == micro::expected(left, tasks, iters, count),
                 "tasks: wrong values received");
  bench::report("tasks", "mpi", size, seconds / (static_cast<double>(tasks) * iters), total);
  MPI_Finalize();
}
