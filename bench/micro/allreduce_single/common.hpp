// allreduce_single of one int per call: local code shared by both variants.
#pragma once

#include <bench_util.hpp>

namespace micro {

// The value rank `rank` contributes in iteration `i`.
inline int value(int rank, int i) { return rank + i % 7; }

// The sum over all iterations of the reduced values, checked against the closed form.
inline long long check(long long total, int size, int iters) {
  long long expected = 0;
  for (int i = 0; i < iters; ++i) {
    for (int r = 0; r < size; ++r) expected += value(r, i);
  }
  bench::require(total == expected, "allreduce_single: wrong sum");
  return total;
}

}  // namespace micro
