// Janus Quicksort (nampi::janus_sort) on range communicators: a distributed quicksort that
// leaves every rank exactly floor(n/p) or ceil(n/p) elements (the first n % p ranks one more),
// sorted across the ranks in rank order. An opt-in header: #include <nampi/janus_sort.hpp>.
//
// Rank i owns the global positions [begin(i), begin(i + 1)) of the sorted sequence. A task is
// a range of positions [lo, hi) and the range communicator of the ranks that own them (made in
// O(1), no MPI call); a rank whose positions a split cuts belongs to both halves: a janus rank.
// Each task: a pivot (the median of one sample per rank, weighted by its element count, by the
// range's allgather), a three-way partition (less, equal, greater; the equal ones are already
// in place, so each half is smaller and all-equal inputs end at once), positions by the range's
// exscan and allreduce, and each element sent to the owner of its position. A task of one
// rank sorts locally. Each task is a coroutine (nampi/detail/range/task.hpp) whose
// communication is all nonblocking (the range's allgather, exscan and allreduce algorithms run
// as parts of it, and probes), so a janus rank runs its two tasks at once, as in RBC: neither
// half waits for the other's progress at a janus rank.
//
// Messages: all of them, the tasks' collectives and the element messages, go on nampi's own
// context of the communicator (nampi/detail/own_context.hpp), so none meets a message of the
// program. The element messages use its tags 6 * (depth % 64) + 3 * last + class
// (own_tags::janus_first on; the range collectives' tags lie above
// own_tags::collective_tags_begin). `last`: whether the receiver is the last rank of the task. At
// one depth the tasks cover disjoint positions, so two of them that share a rank share only that
// one, which is the last rank of one and the first of the other: their messages never match each
// other's, not even the rank's messages to itself (the wildcard receive takes only messages from
// inside its range, and that rank is inside both).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "nampi/detail/splitmix.hpp"
#include "nampi/nampi.hpp"

namespace nampi {
namespace detail::janus {

inline constexpr int first_tag = detail::own_tags::janus_first;
// Depths share tags modulo tag_cycle, so recursion has no depth limit. A depth's messages
// cannot be taken at another depth of the same tag: a rank sends at depth d only after the
// task's allreduce of depth d completed, so every receiver of the task has entered depth d and
// taken all of its messages of the depths before; tasks only shrink, so a receiver of depth d
// was in the sender's task at every depth before. (6 tags per depth: 6 * 64 stay below
// own_tags::sparse_alltoall_first.)
inline constexpr int tag_cycle = 64;

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

// Two tasks of a janus rank at once: each turn drives both as far as their messages allow.
inline range_task both(range_task lower, range_task upper) {
  for (;;) {
    const bool lower_done = lower.progress(false);
    const bool upper_done = upper.progress(false);
    if (lower_done && upper_done) break;
    co_await range_poll{};
  }
  const int lower_code = lower.result();  // (throws what either raised)
  const int upper_code = upper.result();
  co_return lower_code != MPI_SUCCESS ? lower_code : upper_code;
}

template <typename T, typename Compare>
class sorter {
 public:
  sorter(const RangeCommunicator& all, layout l, Compare comp)
      : all_(all), layout_(l), comp_(comp) {}

  int deepest() const { return deepest_; }

  // The task [lo, hi) on `task` (ranks of `all_`, offset first_rank there): `mine` holds this
  // rank's elements of it; `out` gets those of its own positions in [lo, hi), sorted. A coroutine
  // whose every communication is nonblocking, so that a janus rank runs its two tasks at once.
  // Its collectives are the range's algorithms run as parts of it: each started on tags of its
  // own, as a range's call starts them (range/collective_start.hpp), and awaited like any part
  // (no call's result, request and polling between).
  range_task solve(RangeCommunicator task, int first_rank, std::int64_t lo, std::int64_t hi,
                   std::vector<T> mine, int depth, std::vector<T>* out) {
    deepest_ = std::max(deepest_, depth);
    if (task.size() == 1) {
      std::sort(mine.begin(), mine.end(), comp_);
      *out = std::move(mine);
      co_return MPI_SUCCESS;
    }
    using namespace nampi::params;
    const int last_rank = first_rank + task.size() - 1;  // in all_
    const range_handle range = task.call_context("janus_sort").comm;
    const MPI_Datatype count_type = mpi_datatype<std::int64_t>();
    // The pivot: every rank's element count and one sample of its elements (weighted_median).
    const std::int64_t held = static_cast<std::int64_t>(mine.size());
    const T sample = mine.empty() ? T{} : mine[sample_index(depth, lo, task.rank(), mine.size())];
    std::vector<std::int64_t> weights(static_cast<std::size_t>(task.size()));
    std::vector<T> samples(static_cast<std::size_t>(task.size()));
    {
      const started_collective started = start_collective(range, "MPI_Iallgather");
      check_range_code(
          "MPI_Iallgather",
          co_await rc::allgatherv(&held, 1, count_type, weights.data(), rc::same_count{1},
                                  rc::block_displ{1}, count_type, started.wire));
    }
    {
      const started_collective started = start_collective(range, "MPI_Iallgather");
      check_range_code(
          "MPI_Iallgather",
          co_await rc::allgatherv(&sample, 1, mpi_datatype<T>(), samples.data(), rc::same_count{1},
                                  rc::block_displ{1}, mpi_datatype<T>(), started.wire));
    }
    const T pivot = weighted_median(weights, samples);
    // The three classes, in order, each as contiguous elements of `mine`.
    auto less_end =
        std::partition(mine.begin(), mine.end(), [&](const T& x) { return comp_(x, pivot); });
    auto equal_end =
        std::partition(less_end, mine.end(), [&](const T& x) { return !comp_(pivot, x); });
    const std::int64_t own[3] = {less_end - mine.begin(), equal_end - less_end,
                                 mine.end() - equal_end};
    std::int64_t before[3] = {0, 0, 0}, totals[3] = {0, 0, 0};  // (rank 0's prefix: none)
    {
      const started_collective started = start_collective(range, "MPI_Iexscan");
      check_range_code("MPI_Iexscan",
                       co_await rc::exscan(own, before, 3, count_type, MPI_SUM, started.wire));
    }
    {
      const started_collective started = start_collective(range, "MPI_Iallreduce");
      check_range_code("MPI_Iallreduce",
                       co_await rc::allreduce(own, totals, 3, count_type, MPI_SUM, started.wire));
    }
    const std::int64_t starts[3] = {lo, lo + totals[0], lo + totals[0] + totals[1]};

    // Every element to the owner of its position: nonblocking sends, then the receives.
    std::vector<MPI_Request> sends;
    const T* data = mine.data();
    for (int c = 0; c < 3; ++c) {
      std::int64_t position = starts[c] + before[c];
      std::int64_t left = own[c];
      while (left > 0) {
        const int owner = layout_.owner(position);
        const std::int64_t piece = std::min(left, layout_.begin(owner + 1) - position);
        sends.emplace_back();
        detail::call_mpi("MPI_Isend", MPI_Isend, static_cast<const void*>(data),
                         detail::narrow<int>(piece, "janus_sort", "a piece", "int"),
                         mpi_datatype<T>(), all_.parent_rank(owner),
                         tag_of(depth, owner == last_rank, c), all_.parent_communicator(),
                         &sends.back());
        data += piece;
        position += piece;
        left -= piece;
      }
    }
    const int me = first_rank + task.rank();  // my rank in all_
    const std::int64_t my_lo = std::max(lo, layout_.begin(me));
    const std::int64_t my_hi = std::min(hi, layout_.begin(me + 1));
    // Each class's part, sized for what comes (the counts said how much); the pieces are
    // received in place, one after another in the order they are found.
    std::vector<T> parts[3];
    std::int64_t found[3] = {0, 0, 0};  // elements of each class whose receive is posted
    for (int c = 0; c < 3; ++c) {
      const std::int64_t class_hi = c < 2 ? starts[c + 1] : hi;
      parts[c].resize(static_cast<std::size_t>(
          std::max<std::int64_t>(0, std::min(my_hi, class_hi) - std::max(my_lo, starts[c]))));
    }
    range_round pieces(all_.parent_communicator());
    for (int c = 0; c < 3; ++c) {
      const auto expected = static_cast<std::int64_t>(parts[c].size());
      while (found[c] < expected) {
        MPI_Status status;
        if (!task.iprobe(source(MPI_ANY_SOURCE), tag(tag_of(depth, me == last_rank, c)),
                         status_out(status))) {
          co_await range_poll{};
          continue;
        }
        // The probe told the piece's sender and size: received in place after the pieces
        // found before it, as the sends went (MPI on the parent communicator): no second
        // probe, no copy. Nonblocking, and not waited for before the next piece is looked
        // for: the pieces of several senders travel at once (one at a time, each would wait
        // out its own latency), and while they arrive a janus rank's other task goes on.
        int count = 0;
        detail::call_mpi("MPI_Get_count", MPI_Get_count, &status, mpi_datatype<T>(), &count);
        NAMPI_CHECK(count >= 0 && found[c] + count <= expected,
                    "janus_sort: a message of %d elements of a class, where %lld are missing",
                    count, static_cast<long long>(expected - found[c]));
        pieces.recv(parts[c].data() + found[c], count, mpi_datatype<T>(),
                    all_.parent_rank(first_rank + status.MPI_SOURCE),
                    tag_of(depth, me == last_rank, c));
        found[c] += count;
      }
    }
    co_await pieces;
    // The sends, completed without blocking: a receiver may be a janus rank that is busy in
    // its other task, which waits for this rank's other task in turn.
    for (;;) {
      int done = 0;
      detail::call_mpi("MPI_Testall", MPI_Testall, static_cast<int>(sends.size()), sends.data(),
                       &done, MPI_STATUSES_IGNORE);
      if (done != 0) break;
      co_await range_poll{};
    }

    // The lower and the upper task, at once where this is a janus rank of both; the equal
    // ones are in their final positions.
    std::vector<T> lower = std::move(parts[0]), upper = std::move(parts[2]);
    range_task lower_task = sub_task(lo, starts[1], lower, depth, me);
    range_task upper_task = sub_task(starts[2], hi, upper, depth, me);
    int code = MPI_SUCCESS;  // the halves' (their failures throw; a code is passed on)
    if (lower_task.holds() && upper_task.holds())
      code = co_await both(std::move(lower_task), std::move(upper_task));
    else if (lower_task.holds())
      code = co_await lower_task;
    else if (upper_task.holds())
      code = co_await upper_task;
    *out = std::move(lower);
    out->insert(out->end(), parts[1].begin(), parts[1].end());
    out->insert(out->end(), upper.begin(), upper.end());
    co_return code;  // a range_task has no return_void: flowing off its end is undefined
  }

 private:
  // The task [lo, hi) of this rank, started, sorting `mine` in place; none (holds() false)
  // where it is empty or owns none of its positions.
  range_task sub_task(std::int64_t lo, std::int64_t hi, std::vector<T>& mine, int depth, int me) {
    if (lo >= hi) return {};
    const int low_rank = layout_.owner(lo);
    const int high_rank = layout_.owner(hi - 1);
    if (me < low_rank || me > high_rank) return {};
    using namespace nampi::params;
    const RangeCommunicator task = all_.range(first(low_rank), last(high_rank));
    std::vector<T> elements = std::move(mine);
    return solve(task, low_rank, lo, hi, std::move(elements), depth + 1, &mine);
  }

  // The median of one sample per rank, each weighted by how many elements its rank holds. A
  // sample is an element at a position that differs by rank and by level (sample_index), so
  // that a level does not pick what the one above picked. The weights matter: unweighted, a rank
  // holding the task's last position holds its largest element, and in a task of two ranks that
  // element was the upper median every time, so the task shrank by one element per level.
  T weighted_median(const std::vector<std::int64_t>& weights, const std::vector<T>& samples) const {
    std::vector<std::size_t> real;  // the ranks that hold elements, by their sample
    std::int64_t total = 0;
    for (std::size_t i = 0; i < samples.size(); ++i)
      if (weights[i] > 0) {
        real.push_back(i);
        total += weights[i];
      }
    NAMPI_CHECK(!real.empty(), "janus_sort: a task without elements");
    std::sort(real.begin(), real.end(),
              [&](std::size_t a, std::size_t b) { return comp_(samples[a], samples[b]); });
    std::int64_t below = 0;
    for (std::size_t i : real) {
      below += weights[i];
      if (2 * below >= total) return samples[i];
    }
    return samples[real.back()];  // (not reached: below reaches total)
  }

  // Where this rank samples its elements of the task at `lo`: a hash of the task and the rank
  // (splitmix64), so that a level does not pick where the one above picked. (A linear formula
  // in the depth alone kept hitting the smallest element of a rank whose elements shift by one
  // per level: on sorted input the task shrank by one element per level.)
  static std::size_t sample_index(int depth, std::int64_t lo, int rank, std::size_t size) {
    std::uint64_t x = (static_cast<std::uint64_t>(lo) << 20) ^
                      (static_cast<std::uint64_t>(depth) << 10) ^ static_cast<std::uint64_t>(rank);
    return static_cast<std::size_t>(splitmix64(x) % size);
  }

  // A level's element messages: one tag per depth (modulo tag_cycle), class, and whether the
  // receiver is the task's last rank (a rank's two tasks at one depth: it is the last rank of
  // one only).
  static int tag_of(int depth, bool last, int c) {
    return first_tag + 6 * (depth % tag_cycle) + 3 * last + c;
  }

  RangeCommunicator all_;
  layout layout_;
  Compare comp_;
  int deepest_ = 0;  // the deepest level of a task of this rank
};

}  // namespace detail::janus

// Sorts the elements of every rank of `comm` (a nampi::Communicator or a RangeCommunicator)
// by `comp`: afterwards rank i holds floor(n/p) or ceil(n/p) elements (the first n % p
// ranks one more), and their concatenation in rank order is sorted. T is a type with an MPI
// datatype (nampi/types.hpp). Collective: every rank of `comm` calls it.
// Returns the recursion depth this rank reached: its deepest task's level (0: the whole range
// was one task of this rank, or there was nothing to sort).
template <typename Comm, typename T, typename Compare = std::less<>>
int janus_sort(const Comm& comm, std::vector<T>& data, Compare comp = {}) {
  using namespace nampi::params;
  // Its tasks' messages, point-to-point ones too, go on nampi's own context of the
  // communicator, where no message of the program meets them.
  RangeCommunicator all = comm.range(first(0), last(comm.size() - 1)).internal("janus_sort");
  const std::int64_t n =
      all.allreduce_single(send_buf(static_cast<std::int64_t>(data.size())), op(std::plus<>{}));
  if (n == 0) return 0;
  const detail::janus::layout layout{n, all.size()};
  detail::janus::sorter<T, Compare> sorter(all, layout, comp);
  std::vector<T> sorted;
  detail::check_range_code("janus_sort",
                           sorter.solve(all, 0, 0, n, std::move(data), 0, &sorted).run());
  data = std::move(sorted);
  return sorter.deepest();
}

}  // namespace nampi
