// Local code of init_finalize: the clock (MPI_Wtime is not available before
// MPI_Init nor after MPI_Finalize) and the result line, printed without MPI.
//
// "seconds" = (time of MPI_Init, maximum over ranks, gathered while MPI runs)
//           + (time of MPI_Finalize on rank 0 alone, measured after it returned).
#pragma once

#include <chrono>
#include <cstdio>

namespace init_finalize {

using clock = std::chrono::steady_clock;

inline double seconds_between(clock::time_point start, clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

inline void report(const char* variant, int ranks, double init, double finalize) {
  std::printf(
      "{\"app\": \"init_finalize\", \"variant\": \"%s\", \"ranks\": %d, \"seconds\": %.9g, "
      "\"checksum\": \"%d\", \"init_seconds\": %.9g, \"finalize_seconds\": %.9g}\n",
      variant, ranks, init + finalize, ranks, init, finalize);
  std::fflush(stdout);
}

}  // namespace init_finalize
