#if defined(NAMPI_BENCH_LEAN)  // init_finalize_nampi_lean: <nampi/core.hpp> and the families it calls
#include <nampi/core.hpp>
#include <nampi/calls/reduce_single.hpp>
#else
#include <nampi/nampi.hpp>
#endif
#include <optional>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  const auto init_start = init_finalize::clock::now();
  std::optional<nampi::Environment> env(std::in_place, argc, argv);
  const double mine = init_finalize::seconds_between(init_start, init_finalize::clock::now());
  nampi::Communicator comm;
  const double init = comm.reduce_single(send_buf(mine), op(nampi::ops::max<>{}));
  const auto finalize_start = init_finalize::clock::now();
  env.reset();
  const auto finalize_end = init_finalize::clock::now();

  if (comm.rank() == 0)
    init_finalize::report("nampi", comm.size(), init,
                          init_finalize::seconds_between(finalize_start, finalize_end));
}
