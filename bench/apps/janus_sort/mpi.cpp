// Janus Quicksort in plain MPI, the algorithm of nampi::janus_sort with an MPI communicator
// per task: each level splits its task's communicator twice with MPI_Comm_split (a janus
// rank, whose positions the split cuts, belongs to both halves), where nampi makes two range
// communicators without an MPI call.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "bench_util.hpp"
#include "common.hpp"

namespace {

using key = std::uint64_t;

class sorter {
 public:
  explicit sorter(janus::layout l) : layout_(l) {}

  // The task [lo, hi) on `task`, whose rank 0 is world rank `first_rank`: `mine` holds this
  // rank's keys of it; returns those of its own positions, sorted.
  std::vector<key> solve(MPI_Comm task, int first_rank, std::int64_t lo, std::int64_t hi,
                         std::vector<key> mine, int depth) {
    int rank = 0, size = 0;
    MPI_Comm_rank(task, &rank);
    MPI_Comm_size(task, &size);
    if (size == 1) {
      std::sort(mine.begin(), mine.end());
      return mine;
    }
    const key pivot = pick_pivot(task, rank, size, mine, depth);
    auto less_end = std::partition(mine.begin(), mine.end(), [&](key x) { return x < pivot; });
    auto equal_end = std::partition(less_end, mine.end(), [&](key x) { return x <= pivot; });
    const std::array<std::int64_t, 3> counts{less_end - mine.begin(), equal_end - less_end,
                                             mine.end() - equal_end};
    std::array<std::int64_t, 3> before{0, 0, 0}, totals{};
    MPI_Exscan(counts.data(), before.data(), 3, MPI_INT64_T, MPI_SUM, task);
    if (rank == 0) before = {0, 0, 0};
    MPI_Allreduce(counts.data(), totals.data(), 3, MPI_INT64_T, MPI_SUM, task);
    const std::array<std::int64_t, 3> starts{lo, lo + totals[0], lo + totals[0] + totals[1]};

    // Every key to the owner of its position, on the task's communicator (tag: its class).
    std::vector<MPI_Request> sends;
    const key* data = mine.data();
    for (int c = 0; c < 3; ++c) {
      std::int64_t position = starts[c] + before[c];
      std::int64_t left = counts[c];
      while (left > 0) {
        const int owner = layout_.owner(position);
        const std::int64_t piece = std::min(left, layout_.begin(owner + 1) - position);
        sends.emplace_back();
        MPI_Isend(data, static_cast<int>(piece), MPI_UINT64_T, owner - first_rank, c, task,
                  &sends.back());
        data += piece;
        position += piece;
        left -= piece;
      }
    }
    const int me = first_rank + rank;
    const std::int64_t my_lo = std::max(lo, layout_.begin(me));
    const std::int64_t my_hi = std::min(hi, layout_.begin(me + 1));
    std::vector<key> parts[3];
    for (int c = 0; c < 3; ++c) {
      const std::int64_t class_hi = c < 2 ? starts[c + 1] : hi;
      const std::int64_t expected =
          std::max<std::int64_t>(0, std::min(my_hi, class_hi) - std::max(my_lo, starts[c]));
      while (static_cast<std::int64_t>(parts[c].size()) < expected) {
        MPI_Status status;
        MPI_Probe(MPI_ANY_SOURCE, c, task, &status);
        int count = 0;
        MPI_Get_count(&status, MPI_UINT64_T, &count);
        const std::size_t at = parts[c].size();
        parts[c].resize(at + static_cast<std::size_t>(count));
        MPI_Recv(parts[c].data() + at, count, MPI_UINT64_T, status.MPI_SOURCE, c, task,
                 MPI_STATUS_IGNORE);
      }
      bench::require(static_cast<std::int64_t>(parts[c].size()) == expected, "janus: lost keys");
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);

    // The halves' communicators: every rank of the task takes part in both splits.
    const std::int64_t sub_lo[2] = {lo, starts[2]};
    const std::int64_t sub_hi[2] = {starts[1], hi};
    MPI_Comm halves[2] = {MPI_COMM_NULL, MPI_COMM_NULL};
    for (int h = 0; h < 2; ++h) {
      const bool in = sub_lo[h] < sub_hi[h] && me >= layout_.owner(sub_lo[h]) &&
                      me <= layout_.owner(sub_hi[h] - 1);
      MPI_Comm_split(task, in ? 0 : MPI_UNDEFINED, rank, &halves[h]);
    }
    std::vector<key> result = sub_task(halves[0], sub_lo[0], sub_hi[0], std::move(parts[0]), depth);
    result.insert(result.end(), parts[1].begin(), parts[1].end());
    std::vector<key> upper = sub_task(halves[1], sub_lo[1], sub_hi[1], std::move(parts[2]), depth);
    result.insert(result.end(), upper.begin(), upper.end());
    return result;
  }

 private:
  std::vector<key> sub_task(MPI_Comm& half, std::int64_t lo, std::int64_t hi, std::vector<key> mine,
                            int depth) {
    if (half == MPI_COMM_NULL) return mine;
    std::vector<key> sorted = solve(half, layout_.owner(lo), lo, hi, std::move(mine), depth + 1);
    MPI_Comm_free(&half);
    return sorted;
  }

  // The median of one sample per rank that has keys. (nampi::janus_sort weights each rank's
  // sample by its number of keys; this plain version keeps the unweighted median, as
  // bench/results/scale/scale.md says.)
  static key pick_pivot(MPI_Comm task, int rank, int size, const std::vector<key>& mine,
                        int depth) {
    std::vector<key> sample;
    if (!mine.empty())
      sample.push_back(
          mine[(static_cast<std::size_t>(depth) * 2654435761u + rank * 40503u) % mine.size()]);
    const int have = static_cast<int>(sample.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
    MPI_Allgather(&have, 1, MPI_INT, counts.data(), 1, MPI_INT, task);
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    std::vector<key> samples(static_cast<std::size_t>(total));
    MPI_Allgatherv(sample.data(), have, MPI_UINT64_T, samples.data(), counts.data(), displs.data(),
                   MPI_UINT64_T, task);
    bench::require(!samples.empty(), "janus: a task without keys");
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
    return samples[samples.size() / 2];
  }

  janus::layout layout_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench::args args(argc, argv);
  const long long n = args.get_int("n", 1000000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  const auto input = sample_sort::generate(seed, rank, n);

  std::vector<key> output;
  const double seconds = bench::measure(static_cast<int>(args.get_int("reps", 3)), [&] {
    const janus::layout layout{n * size, size};
    sorter s(layout);
    output = s.solve(MPI_COMM_WORLD, 0, 0, layout.n, input, 0);
  });

  bench::require(static_cast<long long>(output.size()) == n, "not balanced");
  bench::require(std::is_sorted(output.begin(), output.end()), "not sorted locally");
  const auto local_bounds = sample_sort::bounds(output);
  std::vector<std::uint64_t> all_bounds(local_bounds.size() * static_cast<std::size_t>(size));
  MPI_Allgather(local_bounds.data(), 3, MPI_UINT64_T, all_bounds.data(), 3, MPI_UINT64_T,
                MPI_COMM_WORLD);
  bench::require(sample_sort::globally_sorted(all_bounds, n * size), "not sorted globally");
  const auto local_totals = sample_sort::digests(input, output);
  std::vector<std::uint64_t> totals(rank == 0 ? local_totals.size() : 0);
  MPI_Reduce(local_totals.data(), totals.data(), 4, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  bench::require(rank != 0 || sample_sort::same_keys(totals), "keys lost or changed");
  bench::report("janus_sort", "mpi", size, seconds, bench::hex(bench::fnv1a(totals)));
  MPI_Finalize();
}
