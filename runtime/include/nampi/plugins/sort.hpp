// The sort plugin: comm.sort(data) (or comm.sort(data, comp)) sorts the ranks' std::vectors
// as one sequence: afterwards each rank's vector is sorted and every element of rank r is
// not greater than any of rank r + 1 (under comp). A sample sort with regular sampling
// (PSRS): sort locally, gather p - 1 evenly spaced samples per rank (MPI_Allgather of their
// count + MPI_Allgatherv), take p - 1 evenly spaced splitters of them, send each element to
// its bucket (MPI_Alltoall of the counts + MPI_Alltoallv), sort what arrived.
//
// Balance: ties are broken by (rank, position), so every element is distinct to the
// splitters and equal keys spread like distinct ones. Where every rank starts with m
// elements, every rank ends with fewer than 2m + p (PSRS's bound: a bucket lies between two
// splitters that are p samples apart, each sample standing for at most m/p + 1 elements of
// each rank's sorted run).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "nampi/detail/narrow.hpp"
#include "nampi/plugin.hpp"

namespace nampi {
namespace detail::psrs {

// An element as the splitters see it: its value, then its rank and its position there.
template <typename T>
struct keyed {
  T value;
  int rank;
  std::int64_t position;
};

template <typename T, typename Compare>
bool before(const keyed<T>& a, const keyed<T>& b, Compare& comp) {
  if (comp(a.value, b.value)) return true;
  if (comp(b.value, a.value)) return false;
  return a.rank != b.rank ? a.rank < b.rank : a.position < b.position;
}

template <typename T, typename Compare, typename Comm>
void sort(const Comm& comm, std::vector<T>& data, Compare comp) {
  using namespace nampi::params;
  const int p = comm.size(), me = comm.rank();
  std::sort(data.begin(), data.end(), comp);
  if (p == 1) return;
  const auto m = static_cast<std::int64_t>(data.size());
  // p - 1 evenly spaced samples of the sorted run (fewer where it is shorter).
  std::vector<keyed<T>> samples;
  for (int k = 1; k < p && m > 0; ++k) {
    const std::int64_t at = k * m / p;
    if (samples.empty() || samples.back().position != at) samples.push_back({data[at], me, at});
  }
  std::vector<keyed<T>> all = comm.allgatherv(send_buf(samples));
  std::sort(all.begin(), all.end(),
            [&](const keyed<T>& a, const keyed<T>& b) { return before(a, b, comp); });
  // p - 1 splitters, evenly spaced among the samples: bucket b takes what lies between
  // splitter b - 1 and splitter b.
  std::vector<keyed<T>> splitters;
  for (int k = 1; k < p && !all.empty(); ++k)
    splitters.push_back(all[static_cast<std::size_t>(k) * all.size() / p]);
  // The local run is in tuple order, so each bucket is one stretch of it.
  std::vector<int> counts(static_cast<std::size_t>(p), 0);
  std::int64_t start = 0;
  for (int b = 0; b < p; ++b) {
    std::int64_t end = m;
    if (b < static_cast<int>(splitters.size())) {
      // The first position not before splitter b (binary search in tuple order).
      std::int64_t lo = start, hi = m;
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (before(keyed<T>{data[mid], me, mid}, splitters[b], comp))
          lo = mid + 1;
        else
          hi = mid;
      }
      end = lo;
    }
    counts[b] = narrow<int>(end - start, "sort", "a bucket's count", "int");
    start = end;
  }
  std::vector<T> received = comm.alltoallv(send_buf(data), send_counts(counts));
  std::sort(received.begin(), received.end(), comp);
  data = std::move(received);
}

}  // namespace detail::psrs

namespace plugins {

// The plugin's members (a plugin and its member may not share a name: the plugin is an alias
// of this class).
template <typename Comm>
class sort_members {
 public:
  /// Sorts the ranks' vectors as one sequence (in rank order), by comp (default std::less<>):
  /// collective. Elements must be trivially copyable (they travel as MPI data). Where every
  /// rank starts with m elements, each ends with fewer than 2m + p.
  template <typename T, typename Compare = std::less<>>
  void sort(std::vector<T>& data, Compare comp = {}) const {
    static_assert(std::is_trivially_copyable_v<T>,
                  "nampi: sort: the elements must be trivially copyable (they are sent as MPI "
                  "data; sort serialized data locally or use a key)");
    detail::psrs::sort(static_cast<const Comm&>(*this), data, comp);
  }
};

template <typename Comm>
using sort = sort_members<Comm>;

}  // namespace plugins
}  // namespace nampi
