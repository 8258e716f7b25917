// sample_sort: local code shared by nampi.cpp and mpi.cpp. Every rank holds n uniformly
// random 64-bit keys; the distributed sort leaves each rank a sorted range, ranks in order.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sample_sort {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline std::vector<std::uint64_t> generate(std::uint64_t seed, int rank, long long n) {
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(n));
  std::uint64_t state = seed * 0x2545f4914f6cdd1dull + static_cast<std::uint64_t>(rank);
  for (auto& k : keys) k = splitmix64(state);
  return keys;
}

inline std::vector<std::uint64_t> sorted_copy(const std::vector<std::uint64_t>& keys) {
  std::vector<std::uint64_t> sorted(keys);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// `count` regularly spaced keys of a sorted vector (zeros if it is empty).
inline std::vector<std::uint64_t> regular_samples(const std::vector<std::uint64_t>& sorted,
                                                  int count) {
  std::vector<std::uint64_t> samples(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < samples.size() && !sorted.empty(); ++i)
    samples[i] = sorted[(i + 1) * sorted.size() / (samples.size() + 1)];
  return samples;
}

// size - 1 splitters, regularly spaced among all ranks' samples.
inline std::vector<std::uint64_t> choose_splitters(std::vector<std::uint64_t> samples, int size) {
  std::sort(samples.begin(), samples.end());
  std::vector<std::uint64_t> splitters(static_cast<std::size_t>(size - 1));
  for (std::size_t i = 0; i < splitters.size(); ++i)
    splitters[i] = samples[(i + 1) * samples.size() / static_cast<std::size_t>(size)];
  return splitters;
}

// How many keys of the sorted vector go to each rank: rank r gets the keys in
// (splitters[r - 1], splitters[r]].
inline std::vector<int> partition_counts(const std::vector<std::uint64_t>& sorted,
                                         const std::vector<std::uint64_t>& splitters) {
  std::vector<int> counts(splitters.size() + 1);
  auto begin = sorted.begin();
  for (std::size_t r = 0; r < splitters.size(); ++r) {
    auto end = std::upper_bound(begin, sorted.end(), splitters[r]);
    counts[r] = static_cast<int>(end - begin);
    begin = end;
  }
  counts.back() = static_cast<int>(sorted.end() - begin);
  return counts;
}

inline void local_sort(std::vector<std::uint64_t>& keys) { std::sort(keys.begin(), keys.end()); }

// {count, first, last} of this rank's sorted keys (first = last = 0 if empty).
inline std::array<std::uint64_t, 3> bounds(const std::vector<std::uint64_t>& sorted) {
  if (sorted.empty()) return {0, 0, 0};
  return {sorted.size(), sorted.front(), sorted.back()};
}

// True if every rank's keys are sorted after those of the non-empty ranks before it and
// the ranks hold `total` keys together; `all_bounds` is every rank's bounds() in rank order.
inline bool globally_sorted(const std::vector<std::uint64_t>& all_bounds, std::uint64_t total) {
  std::uint64_t count = 0;
  std::uint64_t previous_last = 0;
  for (std::size_t r = 0; r + 2 < all_bounds.size(); r += 3) {
    if (all_bounds[r] == 0) continue;
    if (count > 0 && all_bounds[r + 1] < previous_last) return false;
    count += all_bounds[r];
    previous_last = all_bounds[r + 2];
  }
  return count == total;
}

// Order-independent digest of a multiset of keys: {sum of mixed keys, number of keys}.
inline std::array<std::uint64_t, 2> digest(const std::vector<std::uint64_t>& keys) {
  std::uint64_t sum = 0;
  for (std::uint64_t k : keys) {
    std::uint64_t state = k;
    sum += splitmix64(state);
  }
  return {sum, keys.size()};
}

// {digest(input), digest(output)}; summed over the ranks, both halves must be equal.
inline std::array<std::uint64_t, 4> digests(const std::vector<std::uint64_t>& input,
                                            const std::vector<std::uint64_t>& output) {
  const auto in = digest(input);
  const auto out = digest(output);
  return {in[0], in[1], out[0], out[1]};
}

inline bool same_keys(const std::vector<std::uint64_t>& totals) {
  return totals.size() == 4 && totals[0] == totals[2] && totals[1] == totals[3];
}

}  // namespace sample_sort
