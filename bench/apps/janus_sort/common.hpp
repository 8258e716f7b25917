// janus_sort: local code shared by nampi.cpp and mpi.cpp. The input, the checks and the
// checksum are sample_sort's (bench/apps/sample_sort), so the two sorts compare directly;
// Janus Quicksort also balances: every rank ends with exactly n keys.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../sample_sort/common.hpp"

namespace janus {

// Which rank owns each global position of the sorted sequence: n positions over p ranks,
// the first n % p ranks one more (the layout nampi::janus_sort leaves).
struct layout {
  std::int64_t n;
  int p;
  std::int64_t begin(int rank) const {
    return rank * (n / p) + std::min<std::int64_t>(rank, n % p);
  }
  int owner(std::int64_t position) const {
    const std::int64_t big = n / p + 1;
    const std::int64_t in_big = (n % p) * big;
    if (position < in_big) return static_cast<int>(position / big);
    return static_cast<int>(n % p + (position - in_big) / (n / p));
  }
};

}  // namespace janus
