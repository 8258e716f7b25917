// allgatherv of a vector whose length varies by rank: local code shared by both variants.
#pragma once

#include <bench_util.hpp>
#include <numeric>
#include <vector>

namespace micro {

inline int count_of(int rank, int n) { return n + rank % 3; }

inline std::vector<int> make_local(int rank, int n) {
  std::vector<int> local(static_cast<std::size_t>(count_of(rank, n)));
  for (std::size_t j = 0; j < local.size(); ++j) local[j] = rank * 1000003 + static_cast<int>(j);
  return local;
}

inline std::vector<int> make_counts(int size, int n) {
  std::vector<int> counts(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) counts[static_cast<std::size_t>(r)] = count_of(r, n);
  return counts;
}

inline std::vector<int> make_displs(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  return displs;
}

inline std::uint64_t check(const std::vector<int>& all, int size, int n) {
  std::vector<int> expected;
  for (int r = 0; r < size; ++r) {
    auto local = make_local(r, n);
    expected.insert(expected.end(), local.begin(), local.end());
  }
  bench::require(all == expected, "allgatherv: wrong result");
  return bench::gather_hash(bench::fnv1a(all));
}

}  // namespace micro
