// main() for nampi's MPI test executables (runtime/* and generated/*).
//
// Every rank runs all doctest test cases. Rank 0 prints doctest's normal
// report; other ranks run with doctest's "minimal" option, so they print only
// when something fails there, followed by a line naming the rank. A rank with a
// failure returns non-zero, which makes mpiexec (and so ctest) fail.
//
// After MPI_Finalize, each rank of a program with the PMPI counter checks that every
// datatype and user op it created was freed (support/leak_check.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <cstdio>
#include <nampi/environment.hpp>

#include "leak_check.hpp"

namespace {

// Runs the test cases between MPI_Init and MPI_Finalize (nampi::Environment); returns
// this rank's exit status and sets `rank`.
int run_tests(int argc, char** argv, int& rank, bool& exit_now) {
  // Calls MPI_Init and sets MPI_ERRORS_RETURN on MPI_COMM_WORLD; finalizes on
  // destruction.
  nampi::Environment env(argc, argv);

  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  doctest::Context context;
  // ctest logs are not terminals (Open MPI's launcher may still hand ranks a
  // pty): no colour escapes unless asked for with --no-colors=false.
  context.setOption("no-colors", true);
  context.applyCommandLine(argc, argv);
  if (rank != 0) {
    context.setOption("minimal", true);
    context.setOption("no-version", true);
    context.setOption("no-intro", true);
  }

  const int result = context.run();
  if (context.shouldExit()) {  // --help, --list-test-cases, ...
    exit_now = true;
    return result;
  }

  const int failed_here = result != 0 ? 1 : 0;
  if (failed_here != 0) {
    std::fprintf(stderr, "[nampi test] rank %d of %d: test failures (doctest returned %d)\n", rank,
                 size, result);
    std::fflush(stderr);
  }
  // Let rank 0 report failures of other ranks too. Every rank reaches this
  // point unless a test hung, in which case ctest's timeout ends the job.
  int failed_ranks = failed_here;
  if (MPI_Allreduce(&failed_here, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
          MPI_SUCCESS &&
      rank == 0 && failed_ranks != 0) {
    std::fprintf(stderr, "[nampi test] test failures on %d of %d ranks\n", failed_ranks, size);
    std::fflush(stderr);
  }
  return failed_here;
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0;
  bool exit_now = false;
  const int status = run_tests(argc, argv, rank, exit_now);
  if (exit_now) return status;
  // After MPI_Finalize: nampi frees its cached datatypes and ops before it.
  const bool no_leaks = nampi_test::check_no_leaks(rank);
  return status != 0 ? status : (no_leaks ? 0 : 1);
}
