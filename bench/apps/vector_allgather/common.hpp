// vector_allgather: local code shared by nampi.cpp and mpi.cpp. Rank r of P contributes
// n * (r + 1) / P pseudo-random 64-bit values; every rank gathers all contributions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vector_allgather {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline std::size_t segment_size(long long n, int rank, int size) {
  return static_cast<std::size_t>(n * (rank + 1) / size);
}

// The values rank `rank` contributes (a function of seed, rank, size and n only).
inline std::vector<std::uint64_t> generate(std::uint64_t seed, int rank, int size, long long n) {
  std::vector<std::uint64_t> values(segment_size(n, rank, size));
  std::uint64_t state = seed * 0x2545f4914f6cdd1dull + static_cast<std::uint64_t>(rank);
  for (auto& v : values) v = splitmix64(state);
  return values;
}

// True if `all` is the concatenation, in rank order, of what every rank generated.
inline bool check(const std::vector<std::uint64_t>& all, std::uint64_t seed, int size,
                  long long n) {
  std::size_t offset = 0;
  for (int r = 0; r < size; ++r) {
    const auto expected = generate(seed, r, size, n);
    if (all.size() < offset + expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (all[offset + i] != expected[i]) return false;
    offset += expected.size();
  }
  return offset == all.size();
}

}  // namespace vector_allgather
