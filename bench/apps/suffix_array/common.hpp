// Local (non-communication) code of the suffix array benchmark, shared by nampi.cpp and mpi.cpp:
// the generated text, the local steps of distributed prefix doubling, and the checks.
//
// The text has n characters per rank; rank r owns positions [r * n, (r + 1) * n). Each round
// with shift h gives every suffix i the key (rank[i], rank[i + h]) (0 past the end), sorts the
// keys globally (sample sort), and gives every suffix the number of distinct keys up to its own
// as its new rank; it stops when all ranks are distinct, and the sorted order is the suffix array.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "bench_util.hpp"

namespace suffix_array {

using u64 = std::uint64_t;

// splitmix64: deterministic on every platform (std:: distributions are not).
struct rng {
  u64 state;
  rng(u64 seed, u64 stream)
      : state(seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull) {}
  u64 next() {
    u64 z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

struct config {
  u64 n;  // characters per rank
  u64 seed;
  int reps;
  int rank;
  int size;

  u64 total() const { return n * static_cast<u64>(size); }
  u64 first() const { return n * static_cast<u64>(rank); }
  int owner(u64 i) const { return static_cast<int>(i / n); }
};

inline config read_config(const bench::args& a, int rank, int size) {
  const long long n = a.get_int("n", 1 << 16);
  bench::require(n >= 1, "n must be >= 1");
  return {static_cast<u64>(n), static_cast<u64>(a.get_int("seed", 1)),
          static_cast<int>(a.get_int("reps", 3)), rank, size};
}

// Rank r's block of the text: random letters from {a, c, g, t}.
inline std::vector<char> make_text(const config& c, int rank) {
  rng r(c.seed, static_cast<u64>(rank));
  std::vector<char> text(c.n);
  for (char& ch : text) ch = "acgt"[r.next() >> 62];
  return text;
}

// A suffix's key in one round, and its position.
struct tuple {
  u64 r1, r2, index;
  friend bool operator<(const tuple& a, const tuple& b) {
    if (a.r1 != b.r1) return a.r1 < b.r1;
    if (a.r2 != b.r2) return a.r2 < b.r2;
    return a.index < b.index;
  }
};

// The last key of a run of ranks (exists == 0: the run holds no tuple).
struct last_key {
  u64 r1, r2;
  int exists;
};

// Associative: the later run's last key, if it has one.
inline last_key later(const last_key& lower, const last_key& higher) {
  return higher.exists ? higher : lower;
}

// A new rank sent back to the owner of the suffix.
struct new_rank {
  u64 index, rank;
};

// Initial ranks: the characters (1..255; 0 stands for past the end).
inline std::vector<u64> initial_ranks(const std::vector<char>& text) {
  std::vector<u64> ranks(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) ranks[i] = static_cast<unsigned char>(text[i]);
  return ranks;
}

// The shift by h as an all-to-all: rank[j] travels to the owner of j - h. Fills the element
// counts sent to and received from each rank and returns the part of `ranks` that is sent
// (positions j >= h).
inline std::span<const u64> shift_counts(const config& c, u64 h, const std::vector<u64>& ranks,
                                         std::vector<int>& send_counts,
                                         std::vector<int>& recv_counts) {
  send_counts.assign(static_cast<std::size_t>(c.size), 0);
  recv_counts.assign(static_cast<std::size_t>(c.size), 0);
  const u64 lo = c.first();
  const u64 hi = lo + c.n;
  const u64 send_from = std::max(lo, h);
  const u64 recv_to = std::min(hi, c.total() > h ? c.total() - h : 0);
  for (int r = 0; r < c.size; ++r) {
    const u64 begin = c.n * static_cast<u64>(r);
    const u64 end = begin + c.n;
    // j in [send_from, hi) with j - h in [begin, end)
    const u64 s0 = std::max(send_from, begin + h);
    const u64 s1 = std::min(hi, end + h);
    send_counts[static_cast<std::size_t>(r)] = s1 > s0 ? static_cast<int>(s1 - s0) : 0;
    // i in [lo, recv_to) with i + h in [begin, end)
    const u64 r0 = std::max(lo, begin > h ? begin - h : 0);
    const u64 r1 = std::min(recv_to, end > h ? end - h : 0);
    recv_counts[static_cast<std::size_t>(r)] = r1 > r0 ? static_cast<int>(r1 - r0) : 0;
  }
  return std::span<const u64>(ranks).subspan(std::min<u64>(send_from - lo, c.n));
}

// The keys of the local suffixes (shifted[k] is rank[first + k + h] while that exists), sorted.
inline std::vector<tuple> make_tuples(const config& c, const std::vector<u64>& ranks,
                                      const std::vector<u64>& shifted) {
  std::vector<tuple> tuples(ranks.size());
  for (std::size_t k = 0; k < ranks.size(); ++k)
    tuples[k] = {ranks[k], k < shifted.size() ? shifted[k] : 0, c.first() + k};
  std::sort(tuples.begin(), tuples.end());
  return tuples;
}

// --- sample sort ---

inline constexpr int samples_per_rank = 64;

// Regularly spaced samples of the locally sorted tuples (the same number on every rank).
inline std::vector<tuple> samples(const std::vector<tuple>& sorted) {
  std::vector<tuple> s(samples_per_rank);
  for (std::size_t k = 0; k < s.size(); ++k) s[k] = sorted[k * sorted.size() / s.size()];
  return s;
}

// How many of the locally sorted tuples go to each rank, with splitters from all samples.
inline std::vector<int> split_counts(const config& c, const std::vector<tuple>& sorted,
                                     std::vector<tuple> all_samples) {
  std::sort(all_samples.begin(), all_samples.end());
  std::vector<int> counts(static_cast<std::size_t>(c.size));
  auto begin = sorted.begin();
  for (int r = 0; r + 1 < c.size; ++r) {
    const tuple& splitter = all_samples[static_cast<std::size_t>(r + 1) * samples_per_rank];
    auto end = std::upper_bound(begin, sorted.end(), splitter);
    counts[static_cast<std::size_t>(r)] = static_cast<int>(end - begin);
    begin = end;
  }
  counts.back() = static_cast<int>(sorted.end() - begin);
  return counts;
}

inline void sort(std::vector<tuple>& tuples) { std::sort(tuples.begin(), tuples.end()); }

// --- re-ranking ---

inline last_key last_key_of(const std::vector<tuple>& sorted) {
  if (sorted.empty()) return {0, 0, 0};
  return {sorted.back().r1, sorted.back().r2, 1};
}

// Marks the tuples that start a group of equal keys (before: the last key on lower ranks, from
// an exclusive scan, so undefined at rank 0) in r1 (1 or 0) and returns how many there are.
inline u64 mark_group_starts(const config& c, std::vector<tuple>& sorted, last_key before) {
  if (c.rank == 0) before = {0, 0, 0};
  u64 starts = 0;
  for (tuple& t : sorted) {
    const bool start = !before.exists || t.r1 != before.r1 || t.r2 != before.r2;
    before = {t.r1, t.r2, 1};
    t.r1 = start ? 1 : 0;
    starts += t.r1;
  }
  return starts;
}

// The new ranks: the number of groups up to and including the tuple's own (starts_before on
// lower ranks, from an exclusive scan). Returns whether every local tuple is alone in its group.
inline bool rerank(const config& c, std::vector<tuple>& sorted, u64 starts_before) {
  if (c.rank == 0) starts_before = 0;
  bool unique = true;
  for (tuple& t : sorted) {
    unique = unique && t.r1 == 1;
    starts_before += t.r1;
    t.r1 = starts_before;
  }
  return unique;
}

// The new ranks, grouped by the owner of the suffix (counts per owner).
inline std::vector<new_rank> by_owner(const config& c, const std::vector<tuple>& sorted,
                                      std::vector<int>& counts) {
  counts.assign(static_cast<std::size_t>(c.size), 0);
  for (const tuple& t : sorted) ++counts[static_cast<std::size_t>(c.owner(t.index))];
  std::vector<std::size_t> pos(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), pos.begin(), std::size_t{0});
  std::vector<new_rank> out(sorted.size());
  for (const tuple& t : sorted)
    out[pos[static_cast<std::size_t>(c.owner(t.index))]++] = {t.index, t.r1};
  return out;
}

inline void place(const config& c, const std::vector<new_rank>& received, std::vector<u64>& ranks) {
  bench::require(received.size() == ranks.size(), "one new rank per local suffix");
  for (const new_rank& r : received) ranks[r.index - c.first()] = r.rank;
}

// This rank's part of the suffix array.
inline std::vector<u64> indices(const std::vector<tuple>& sorted) {
  std::vector<u64> sa(sorted.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) sa[k] = sorted[k].index;
  return sa;
}

// --- check (rank 0, on the gathered suffix array) ---

// The suffix array is a permutation in which every suffix is smaller than the next; for small
// texts it is also compared with a naive sequential suffix sort.
inline void check(const config& c, const std::vector<u64>& sa) {
  std::vector<char> text;
  for (int r = 0; r < c.size; ++r) {
    auto block = make_text(c, r);
    text.insert(text.end(), block.begin(), block.end());
  }
  const u64 n = text.size();
  bench::require(sa.size() == n, "the suffix array has one entry per position");
  std::vector<char> seen(n, 0);
  for (u64 i : sa) {
    bench::require(i < n && !seen[i], "the suffix array is not a permutation");
    seen[i] = 1;
  }
  auto less = [&](u64 a, u64 b) {
    return std::lexicographical_compare(text.begin() + static_cast<std::ptrdiff_t>(a), text.end(),
                                        text.begin() + static_cast<std::ptrdiff_t>(b), text.end());
  };
  for (u64 k = 0; k + 1 < n; ++k) bench::require(less(sa[k], sa[k + 1]), "suffixes out of order");
  if (n <= (u64{1} << 16)) {
    std::vector<u64> naive(n);
    std::iota(naive.begin(), naive.end(), u64{0});
    std::sort(naive.begin(), naive.end(), less);
    bench::require(naive == sa, "differs from the naive suffix sort");
  }
}

}  // namespace suffix_array
