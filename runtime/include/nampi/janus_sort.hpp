// Janus Quicksort (nampi::janus_sort) on range communicators: a distributed quicksort that
// leaves every rank exactly floor(n/p) or ceil(n/p) elements (the first n % p ranks one more),
// sorted across the ranks in rank order. An opt-in header: #include <nampi/janus_sort.hpp>.
//
// Rank i owns the global positions [begin(i), begin(i + 1)) of the sorted sequence. A task is
// a range of positions [lo, hi) and the range communicator of the ranks that own them (made in
// O(1), no MPI call); a rank whose positions a split cuts belongs to both halves: a janus rank.
// Each task: a pivot (the median of one sample per rank, by the range's allgatherv), a three-way
// partition (less, equal, greater; the equal ones are already in place, so each half is smaller
// and all-equal inputs end at once), positions by the range's exscan and allreduce, and each
// element sent to the owner of its position. A task of one rank sorts locally. A janus rank
// finishes its lower task before its upper one; the upper one's other ranks wait for it, with
// no cycle (the blocking range calls; RBC's janus ranks run both at once with nonblocking ones).
//
// Tags: the element messages use tags 32000 + 3 * depth + class on the parent communicator
// (below the range collectives' 32752..32767); like those, they are reserved there.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "nampi/nampi.hpp"

namespace nampi {
namespace detail::janus {

inline constexpr int first_tag = 32000;
inline constexpr int max_depth = (32752 - first_tag) / 3;

// Which rank owns each global position: n positions over p ranks, balanced.
struct layout {
  std::int64_t n;
  int p;
  std::int64_t begin(int rank) const {
    return rank * (n / p) + std::min<std::int64_t>(rank, n % p);
  }
  // (n < p: every position lies among the first n % p = n ranks, so n / p = 0 never divides.)
  int owner(std::int64_t position) const {
    const std::int64_t big = n / p + 1;  // the first n % p ranks own one more
    const std::int64_t in_big = (n % p) * big;
    if (position < in_big) return static_cast<int>(position / big);
    return static_cast<int>(n % p + (position - in_big) / (n / p));
  }
};

template <typename T, typename Compare>
class sorter {
 public:
  sorter(const RangeCommunicator& all, layout l, Compare comp)
      : all_(all), layout_(l), comp_(comp) {}

  // The task [lo, hi) on `task` (ranks of `all_`, offset first_rank there): `mine` holds this
  // rank's elements of it; returns those of its own positions in [lo, hi), sorted.
  std::vector<T> solve(const RangeCommunicator& task, int first_rank, std::int64_t lo,
                       std::int64_t hi, std::vector<T> mine, int depth) {
    if (task.size() == 1) {
      std::sort(mine.begin(), mine.end(), comp_);
      return mine;
    }
    NAMPI_CHECK(depth < max_depth, "janus_sort: recursion deeper than %d levels", max_depth);
    using namespace nampi::params;
    const T pivot = pick_pivot(task, mine, depth);
    // The three classes, in order, each as contiguous elements of `mine`.
    auto less_end =
        std::partition(mine.begin(), mine.end(), [&](const T& x) { return comp_(x, pivot); });
    auto equal_end =
        std::partition(less_end, mine.end(), [&](const T& x) { return !comp_(pivot, x); });
    const std::int64_t counts[3] = {less_end - mine.begin(), equal_end - less_end,
                                    mine.end() - equal_end};
    std::vector<std::int64_t> own(counts, counts + 3);
    auto before = task.exscan(send_buf(own), op(std::plus<>{}),
                              values_on_rank_0(std::vector<std::int64_t>{0, 0, 0}));
    auto totals = task.allreduce(send_buf(own), op(std::plus<>{}));
    const std::int64_t starts[3] = {lo, lo + totals[0], lo + totals[0] + totals[1]};

    // Every element to the owner of its position: nonblocking sends, then the receives.
    std::vector<MPI_Request> sends;
    const T* data = mine.data();
    for (int c = 0; c < 3; ++c) {
      std::int64_t position = starts[c] + before[c];
      std::int64_t left = counts[c];
      while (left > 0) {
        const int owner = layout_.owner(position);
        const std::int64_t piece = std::min(left, layout_.begin(owner + 1) - position);
        sends.emplace_back();
        detail::call_mpi("MPI_Isend", MPI_Isend, static_cast<const void*>(data),
                         detail::narrow<int>(piece, "janus_sort", "a piece", "int"),
                         mpi_datatype<T>(), all_.parent_rank(owner), tag_of(depth, c),
                         all_.parent_communicator(), &sends.back());
        data += piece;
        position += piece;
        left -= piece;
      }
    }
    const int me = first_rank + task.rank();  // my rank in all_
    const std::int64_t my_lo = std::max(lo, layout_.begin(me));
    const std::int64_t my_hi = std::min(hi, layout_.begin(me + 1));
    std::vector<T> parts[3];
    for (int c = 0; c < 3; ++c) {
      const std::int64_t class_hi = c < 2 ? starts[c + 1] : hi;
      const std::int64_t expected =
          std::max<std::int64_t>(0, std::min(my_hi, class_hi) - std::max(my_lo, starts[c]));
      while (static_cast<std::int64_t>(parts[c].size()) < expected) {
        auto piece = task.recv<T>(source(MPI_ANY_SOURCE), tag(tag_of(depth, c)));
        parts[c].insert(parts[c].end(), piece.begin(), piece.end());
      }
      NAMPI_CHECK(static_cast<std::int64_t>(parts[c].size()) == expected,
                  "janus_sort: received %zu elements of a class, expected %lld", parts[c].size(),
                  static_cast<long long>(expected));
    }
    detail::call_mpi("MPI_Waitall", MPI_Waitall, static_cast<int>(sends.size()), sends.data(),
                     MPI_STATUSES_IGNORE);

    // The lower and the upper task (a janus rank takes part in both, lower first); the equal
    // ones are in their final positions.
    std::vector<T> result = sub_task(lo, starts[1], std::move(parts[0]), depth, me);
    result.insert(result.end(), parts[1].begin(), parts[1].end());
    std::vector<T> upper = sub_task(starts[2], hi, std::move(parts[2]), depth, me);
    result.insert(result.end(), upper.begin(), upper.end());
    return result;
  }

 private:
  std::vector<T> sub_task(std::int64_t lo, std::int64_t hi, std::vector<T> mine, int depth,
                          int me) {
    if (lo >= hi) return mine;  // empty
    const int low_rank = layout_.owner(lo);
    const int high_rank = layout_.owner(hi - 1);
    if (me < low_rank || me > high_rank) return mine;  // none of its positions: not in the task
    using namespace nampi::params;
    const RangeCommunicator task = all_.range(first(low_rank), last(high_rank));
    return solve(task, low_rank, lo, hi, std::move(mine), depth + 1);
  }

  // The median of one sample per rank that has elements: an element at a position that
  // differs by rank and by level, so that a level does not pick what the one above picked.
  T pick_pivot(const RangeCommunicator& task, const std::vector<T>& mine, int depth) {
    using namespace nampi::params;
    std::vector<T> sample;
    if (!mine.empty())
      sample.push_back(mine[(static_cast<std::size_t>(depth) * 2654435761u + task.rank() * 40503u) %
                            mine.size()]);
    std::vector<T> samples = task.allgatherv(send_buf(sample));
    NAMPI_CHECK(!samples.empty(), "janus_sort: a task without elements");
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end(), comp_);
    return samples[samples.size() / 2];
  }

  static int tag_of(int depth, int c) { return first_tag + 3 * depth + c; }

  RangeCommunicator all_;
  layout layout_;
  Compare comp_;
};

}  // namespace detail::janus

// Sorts the elements of every rank of `comm` (a nampi::Communicator or a RangeCommunicator)
// by `comp`: afterwards rank i holds floor(n/p) or ceil(n/p) elements (the first n % p
// ranks one more), and their concatenation in rank order is sorted. T is a type with an MPI
// datatype (nampi/types.hpp). Collective: every rank of `comm` calls it.
template <typename Comm, typename T, typename Compare = std::less<>>
void janus_sort(const Comm& comm, std::vector<T>& data, Compare comp = {}) {
  using namespace nampi::params;
  RangeCommunicator all = comm.range(first(0), last(comm.size() - 1));
  const std::int64_t n =
      all.allreduce_single(send_buf(static_cast<std::int64_t>(data.size())), op(std::plus<>{}));
  if (n == 0) return;
  const detail::janus::layout layout{n, all.size()};
  detail::janus::sorter<T, Compare> sorter(all, layout, comp);
  data = sorter.solve(all, 0, 0, n, std::move(data), 0);
}

}  // namespace nampi
