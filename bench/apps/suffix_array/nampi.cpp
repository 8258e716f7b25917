#if defined(NAMPI_BENCH_LEAN)  // suffix_array_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/allgather.hpp>
#include <nampi/calls/allreduce_single.hpp>
#include <nampi/calls/alltoallv.hpp>
#include <nampi/calls/exscan_single.hpp>
#include <nampi/calls/gatherv.hpp>
#else
#include <nampi/nampi.hpp>
#endif

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;
namespace sa = suffix_array;

std::vector<sa::u64> build(const nampi::Communicator& comm, const sa::config& c,
                           const std::vector<char>& text) {
  auto ranks = sa::initial_ranks(text);
  std::vector<int> shift_send;
  std::vector<int> shift_recv;
  for (sa::u64 h = 1;; h *= 2) {
    auto part = sa::shift_counts(c, h, ranks, shift_send, shift_recv);
    auto shifted = comm.alltoallv(send_buf(part), send_counts(shift_send), recv_counts(shift_recv));
    auto tuples = sa::make_tuples(c, ranks, shifted);
    auto all_samples = comm.allgather(send_buf(sa::samples(tuples)));
    auto sorted = comm.alltoallv(send_buf(tuples),
                                 send_counts(sa::split_counts(c, tuples, std::move(all_samples))));
    sa::sort(sorted);
    auto before = comm.exscan_single(
        send_buf(sa::last_key_of(sorted)),
        op([](const sa::last_key& a, const sa::last_key& b) { return sa::later(a, b); }));
    auto starts = sa::mark_group_starts(c, sorted, before);
    auto starts_before = comm.exscan_single(send_buf(starts), op(std::plus<>{}));
    const bool unique = sa::rerank(c, sorted, starts_before);
    if (comm.allreduce_single(send_buf(unique), op(std::logical_and<>{})))
      return sa::indices(sorted);
    std::vector<int> counts;
    auto new_ranks = sa::by_owner(c, sorted, counts);
    sa::place(c, comm.alltoallv(send_buf(new_ranks), send_counts(counts)), ranks);
  }
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const auto c = sa::read_config(bench::args(argc, argv), comm.rank(), comm.size());
  const auto text = sa::make_text(c, c.rank);

  std::vector<sa::u64> local_sa;
  const double seconds = bench::measure(c.reps, [&] { local_sa = build(comm, c, text); });

  const auto sa = comm.gatherv(send_buf(local_sa));
  if (c.rank == 0) sa::check(c, sa);
  bench::report("suffix_array", "nampi", c.size, seconds, bench::hex(bench::fnv1a(sa)));
}
