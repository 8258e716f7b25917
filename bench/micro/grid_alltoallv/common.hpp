// A sparse-data all-to-all of small messages (1 to 3 ints per pair of ranks): the data both
// variants send and the check of what they receive.
#pragma once

#include <bench_util.hpp>
#include <vector>

namespace micro {

// Number of elements rank `from` sends to rank `to`.
inline int count_of(int from, int to, int n) { return n + (from + to) % 3; }

inline int element(int from, int to, int j) { return from * 1000003 + to * 1009 + j; }

inline std::vector<int> make_counts(int rank, int size, int n) {
  std::vector<int> counts(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) counts[static_cast<std::size_t>(r)] = count_of(rank, r, n);
  return counts;
}

inline std::vector<int> make_send(int rank, int size, int n) {
  std::vector<int> data;
  for (int to = 0; to < size; ++to)
    for (int j = 0; j < count_of(rank, to, n); ++j) data.push_back(element(rank, to, j));
  return data;
}

inline std::uint64_t check(const std::vector<int>& received, int rank, int size, int n) {
  std::vector<int> expected;
  for (int from = 0; from < size; ++from)
    for (int j = 0; j < count_of(from, rank, n); ++j) expected.push_back(element(from, rank, j));
  bench::require(received == expected, "grid_alltoallv: wrong result");
  return bench::gather_hash(bench::fnv1a(received));
}

}  // namespace micro
