// Local code of reduce_strategies: the array each rank contributes (integers stored
// as doubles, so that every order of summation gives the same, exact result), the
// element-wise sums the gather and tree strategies compute, the check and the result line.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace reduce_strategies {

inline double value(std::size_t i, int rank) {
  return static_cast<double>((i * 131 + static_cast<std::size_t>(rank) * 977) % 1009);
}

inline std::vector<double> local_data(std::size_t n, int rank) {
  std::vector<double> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = value(i, rank);
  return data;
}

// acc += other, element-wise.
inline void add(std::vector<double>& acc, const std::vector<double>& other) {
  for (std::size_t i = 0; i < acc.size(); ++i) acc[i] += other[i];
}

// result = the element-wise sum of the blocks of `gathered`, one block of result.size() per rank.
inline void sum_blocks(const std::vector<double>& gathered, std::vector<double>& result) {
  const std::size_t n = result.size();
  std::copy(gathered.begin(), gathered.begin() + static_cast<std::ptrdiff_t>(n), result.begin());
  for (std::size_t offset = n; offset < gathered.size(); offset += n)
    for (std::size_t i = 0; i < n; ++i) result[i] += gathered[offset + i];
}

// Whether result holds the sum over `size` ranks; clears it so that the next
// strategy is checked afresh.
inline bool check_and_clear(std::vector<double>& result, int size) {
  bool ok = true;
  for (std::size_t i = 0; i < result.size(); ++i) {
    double expected = 0.0;
    for (int rank = 0; rank < size; ++rank) expected += value(i, rank);
    ok = ok && result[i] == expected;
  }
  std::fill(result.begin(), result.end(), 0.0);
  return ok;
}

// The one result line (rank 0): "seconds" is the time of the `reduce` strategy.
inline void report(const char* variant, int ranks, double gather, double tree, double reduce,
                   std::uint64_t checksum) {
  std::printf(
      "{\"app\": \"reduce_strategies\", \"variant\": \"%s\", \"ranks\": %d, \"seconds\": %.9g, "
      "\"checksum\": \"%016llx\", \"strategies\": {\"gather\": %.9g, \"tree\": %.9g, "
      "\"reduce\": %.9g}}\n",
      variant, ranks, reduce, static_cast<unsigned long long>(checksum), gather, tree, reduce);
  std::fflush(stdout);
}

}  // namespace reduce_strategies
