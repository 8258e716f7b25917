// The checks of the SMPI programs (no doctest: smpirun runs each program once, at many
// simulated ranks). A failed check prints where and what on this rank and makes the program
// exit nonzero, after the other checks of that rank ran.
#pragma once

#include <cstdio>

namespace nampi_smpi {

inline int& failures() {
  static int count = 0;  // one count per simulated rank (SMPI privatizes it, see README)
  return count;
}

inline void check(bool ok, const char* what, const char* file, int line, int rank) {
  if (ok) return;
  ++failures();
  std::fprintf(stderr, "%s:%d: rank %d: check failed: %s\n", file, line, rank, what);
}

}  // namespace nampi_smpi

#define SMPI_CHECK(rank, ...) \
  ::nampi_smpi::check((__VA_ARGS__), #__VA_ARGS__, __FILE__, __LINE__, (rank))
