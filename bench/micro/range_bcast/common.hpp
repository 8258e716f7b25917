// A broadcast on the upper half of the world, the half made for it each time (the paper's
// Figure 7): the first rank of the half sends `bytes` bytes to the others. Local code shared
// by both variants.
#pragma once

#include <bench_util.hpp>
#include <cstdint>
#include <vector>

namespace micro {

// The root's bytes in iteration i.
inline void fill(std::vector<unsigned char>& data, int i) {
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<unsigned char>(k * 7 + i);
}

// Over all iterations at every rank of the half: the sum of the first and last byte received.
inline std::uint64_t sample(const std::vector<unsigned char>& data) {
  return data.empty() ? 0 : data.front() + data.back();
}

inline std::uint64_t check(std::uint64_t total, int iters, std::size_t bytes) {
  std::uint64_t expected = 0;
  std::vector<unsigned char> data(bytes);
  for (int i = 0; i < iters; ++i) {
    fill(data, i);
    expected += sample(data);
  }
  bench::require(total == expected, "range_bcast: wrong bytes received");
  return total;
}

}  // namespace micro
