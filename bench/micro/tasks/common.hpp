// Many exchanges in flight at once: T tasks, each sending `count` ints to the right neighbour
// and receiving as many from the left one, round after round, each task on a tag of its own.
// A task goes on to its next round as soon as its own two messages have completed, whatever
// the others do. Local code shared by all variants.
#pragma once

#include <bench_util.hpp>
#include <cstdint>
#include <vector>

namespace micro {

// The command line of every variant: tasks=T count=ints iters=rounds reps=R how=task|wait.
struct settings {
  explicit settings(const bench::args& args)
      : tasks(static_cast<int>(args.get_int("tasks", 8))),
        count(static_cast<std::size_t>(args.get_int("count", 8))),
        iters(static_cast<int>(args.get_int("iters", 1000))),
        reps(static_cast<int>(args.get_int("reps", 5))),
        tasks_at_once(args.get_string("how", "task") == "task") {}
  int tasks;
  std::size_t count;
  int iters;
  int reps;
  bool tasks_at_once;  // else how=wait: every round posted, then waited for task by task
};

// What `rank` sends as task `task` in round `round`.
inline void fill(std::vector<int>& out, int rank, int task, int round) {
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = static_cast<int>(k) + 10 * rank + 1000 * task + 100000 * round;
}

// What a task keeps of a received message: its first and last values.
inline std::uint64_t sample(const std::vector<int>& in) {
  return in.empty()
             ? 0
             : static_cast<std::uint64_t>(in.front()) + static_cast<std::uint64_t>(in.back());
}

// The sum of the samples every task of `rank` receives over all rounds (from its left).
inline std::uint64_t expected(int left, int tasks, int rounds, std::size_t count) {
  std::uint64_t sum = 0;
  std::vector<int> v(count);
  for (int t = 0; t < tasks; ++t)
    for (int r = 0; r < rounds; ++r) {
      fill(v, left, t, r);
      sum += sample(v);
    }
  return sum;
}

}  // namespace micro
