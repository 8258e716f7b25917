// A nonblocking inclusive prefix sum over all ranks, started and then waited for: on a range
// of the whole world (point-to-point recursive doubling, driven by the result's wait()) and
// with MPI_Iscan on MPI_COMM_WORLD. Local code shared by both variants.
#pragma once

#include <bench_util.hpp>
#include <cstdint>
#include <vector>

namespace micro {

// Rank r's values in iteration i: r + i + k at element k.
inline void fill(std::vector<std::int64_t>& data, int rank, int i) {
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = rank + i + static_cast<std::int64_t>(k);
}

// The prefix sum at `rank` of element k in iteration i: ranks 0..rank contributed.
inline std::int64_t expected(int rank, int i, std::size_t k) {
  const std::int64_t ranks = rank + 1;
  return ranks * (ranks - 1) / 2 + ranks * (i + static_cast<std::int64_t>(k));
}

// Checks every element; the last one, summed into the checksum.
inline std::uint64_t check(const std::vector<std::int64_t>& got, int rank, int i) {
  for (std::size_t k = 0; k < got.size(); ++k)
    bench::require(got[k] == expected(rank, i, k), "range_iscan: wrong prefix sum");
  return got.empty() ? 0 : static_cast<std::uint64_t>(got.back());
}

}  // namespace micro
