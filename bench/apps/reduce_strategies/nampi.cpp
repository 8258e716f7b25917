#if defined(NAMPI_BENCH_LEAN)  // reduce_strategies_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/gather.hpp>
#include <nampi/calls/recv.hpp>
#include <nampi/calls/reduce.hpp>
#include <nampi/calls/send.hpp>
#else
#include <nampi/nampi.hpp>
#endif

#include "bench_util.hpp"
#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const auto n = static_cast<std::size_t>(args.get_int("n", 3000000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  const int rank = comm.rank();
  const bool is_root = rank == 0;
  const auto local = reduce_strategies::local_data(n, rank);
  std::vector<double> gathered(is_root ? n * comm.size() : 0);
  std::vector<double> result(is_root ? n : 0);
  std::vector<double> acc(n);
  std::vector<double> partner(n);

  const double gather = bench::measure(reps, [&] {
    comm.gather(send_buf(local), recv_buf(gathered));
    if (is_root) reduce_strategies::sum_blocks(gathered, result);
  });
  bench::require(reduce_strategies::check_and_clear(result, comm.size()), "gather: wrong sum");

  const double tree = bench::measure(reps, [&] {
    acc = local;
    for (int mask = 1; mask < comm.size(); mask <<= 1) {
      if (rank & mask) {
        comm.send(send_buf(acc), dest(rank - mask));
        break;
      }
      if (rank + mask < comm.size()) {
        comm.recv(recv_buf(partner), source(rank + mask), recv_count(static_cast<int>(n)));
        reduce_strategies::add(acc, partner);
      }
    }
  });
  if (is_root) acc.swap(result);
  bench::require(reduce_strategies::check_and_clear(result, comm.size()), "tree: wrong sum");

  const double reduce = bench::measure(
      reps, [&] { comm.reduce(send_buf(local), recv_buf(result), op(std::plus<>{})); });
  const auto hash = bench::fnv1a(result);
  bench::require(reduce_strategies::check_and_clear(result, comm.size()), "reduce: wrong sum");

  if (is_root) reduce_strategies::report("nampi", comm.size(), gather, tree, reduce, hash);
}
