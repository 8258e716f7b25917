// Local code of array_average: every rank fills its share of a large array with
// pseudo-random integers (stored as doubles, so every sum is exact) and sums it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace array_average {

// Value of global element i: i * multiplier mod modulus, with modulus prime, so
// that every block of `modulus` consecutive indices holds each of 0..modulus-1 once.
inline constexpr std::uint64_t modulus = 1000003;
inline constexpr std::uint64_t multiplier = 740017;

inline double value(std::uint64_t i) { return static_cast<double>(i * multiplier % modulus); }

// The global indices [begin, end) of rank's share of n elements.
struct share {
  long long begin;
  long long end;
};

inline share share_of(long long n, int rank, int size) {
  const long long base = n / size;
  const long long extra = n % size;
  const long long begin = rank * base + std::min<long long>(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

inline void fill(std::vector<double>& part, long long begin) {
  for (std::size_t k = 0; k < part.size(); ++k) part[k] = value(begin + k);
}

inline double sum(const std::vector<double>& part) {
  return std::accumulate(part.begin(), part.end(), 0.0);
}

// The sum of all n values, by the permutation property of `value`.
inline double expected_sum(long long n) {
  const auto blocks = static_cast<std::uint64_t>(n) / modulus;
  double total = static_cast<double>(blocks) * static_cast<double>(modulus * (modulus - 1) / 2);
  for (auto i = blocks * modulus; i < static_cast<std::uint64_t>(n); ++i) total += value(i);
  return total;
}

inline std::string format(double average) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9f", average);
  return text;
}

}  // namespace array_average
