// A sparse exchange: each rank sends n ints to k others, a pattern the receivers do not know
// beforehand. The k destinations of rank r are r + 1, r + 1 + s, ..., r + 1 + (k - 1) s
// (mod p) with s = (p - 1) / k: k distinct other ranks, spread over the ring. Argument
// peers=k (default 2); peers=half is p / 2.
#pragma once

#include <algorithm>
#include <bench_util.hpp>
#include <string>
#include <vector>

namespace micro {

// The number of peers each rank sends to, from the command line.
inline int peers_of(const bench::args& args, int size) {
  const std::string given = args.get_string("peers", "2");
  const int k = given == "half" ? size / 2 : std::stoi(given);
  return std::max(0, std::min(k, size - 1));
}

// The step between a rank's destinations.
inline int step_of(int size, int peers) { return peers > 0 ? (size - 1) / peers : 1; }

// Whether rank `from` sends to rank `to`.
inline bool sends_to(int from, int to, int size, int peers) {
  if (peers == 0) return false;
  const int offset = (to - from + size) % size;
  const int step = step_of(size, peers);
  return offset >= 1 && (offset - 1) % step == 0 && (offset - 1) / step < peers;
}

// Rank `rank`'s destinations, in order.
inline std::vector<int> destinations(int rank, int size, int peers) {
  std::vector<int> out;
  for (int j = 0; j < peers; ++j) out.push_back((rank + 1 + j * step_of(size, peers)) % size);
  return out;
}

// The ranks that send to `rank`, in rank order.
inline std::vector<int> sources(int rank, int size, int peers) {
  std::vector<int> out;
  for (int from = 0; from < size; ++from)
    if (sends_to(from, rank, size, peers)) out.push_back(from);
  return out;
}

inline int element(int from, int to, int j) { return from * 1000003 + to * 1009 + j; }

inline std::vector<int> message(int from, int to, int n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) out[static_cast<std::size_t>(j)] = element(from, to, j);
  return out;
}

// What rank `rank` received, in source order, checked; its hash over all ranks.
inline std::uint64_t check(const std::vector<int>& received, int rank, int size, int n, int peers) {
  std::vector<int> expected;
  for (int from : sources(rank, size, peers))
    for (int x : message(from, rank, n)) expected.push_back(x);
  bench::require(received == expected, "sparse all-to-all: wrong result");
  return bench::gather_hash(bench::fnv1a(received));
}

}  // namespace micro
