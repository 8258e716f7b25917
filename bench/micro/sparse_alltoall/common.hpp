// A sparse exchange: each rank sends n ints to at most two others, rank + 1 and rank + p/2
// (mod p; one of them where they coincide), a pattern the receivers do not know beforehand.
#pragma once

#include <bench_util.hpp>
#include <vector>

namespace micro {

// Whether rank `from` sends to rank `to`.
inline bool sends_to(int from, int to, int size) {
  return size > 1 && (to == (from + 1) % size || to == (from + size / 2) % size);
}

inline int element(int from, int to, int j) { return from * 1000003 + to * 1009 + j; }

inline std::vector<int> message(int from, int to, int n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) out[static_cast<std::size_t>(j)] = element(from, to, j);
  return out;
}

// What rank `rank` received, in source order, checked; its hash over all ranks.
inline std::uint64_t check(const std::vector<int>& received, int rank, int size, int n) {
  std::vector<int> expected;
  for (int from = 0; from < size; ++from)
    if (sends_to(from, rank, size))
      for (int x : message(from, rank, n)) expected.push_back(x);
  bench::require(received == expected, "sparse all-to-all: wrong result");
  return bench::gather_hash(bench::fnv1a(received));
}

}  // namespace micro
