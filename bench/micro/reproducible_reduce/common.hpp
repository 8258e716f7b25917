// A sum of n doubles per rank in [1, 2): every rank's part of one global sequence.
#pragma once

#include <bench_util.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

namespace micro {

inline std::vector<double> part(int rank, int n) {
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::uint64_t g = static_cast<std::uint64_t>(rank) * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(i);
    out[static_cast<std::size_t>(i)] = 1.0 + static_cast<double>((g * 2654435761u) % 1000003) / 1000003.0;
  }
  return out;
}

// The sum to 9 significant digits: the reproducible and the plain sum agree there (all
// terms positive, so rounding differs only in the last bits).
inline std::string checksum(double sum) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", sum);
  return text;
}

}  // namespace micro
