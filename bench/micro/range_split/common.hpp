// Splitting the world into two halves (the paper's Figure 5): each rank gets the half it
// belongs to and reads its rank and size there. Local code shared by both variants.
#pragma once

#include <bench_util.hpp>

namespace micro {

// `value`, as if it could have changed: the split is redone every iteration instead of being
// hoisted out of the loop (a range is pure arithmetic the compiler could otherwise fold).
inline int opaque(int value) {
  asm volatile("" : "+r"(value));
  return value;
}

// The half of rank `rank` among `size`: [0, size/2) or [size/2, size).
inline int half_of(int rank, int size) { return rank < size / 2 ? 0 : 1; }

// Over all iterations: the sum of rank + 2 * size in the new half, checked.
inline long long check(long long total, int rank, int size, int iters) {
  const int lower = size / 2;
  const int new_rank = half_of(rank, size) == 0 ? rank : rank - lower;
  const int new_size = half_of(rank, size) == 0 ? lower : size - lower;
  bench::require(total == static_cast<long long>(iters) * (new_rank + 2 * new_size),
                 "range_split: wrong rank or size in the half");
  return total;
}

}  // namespace micro
