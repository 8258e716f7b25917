// comm.abort(3) must end every process of the job: rank 0 aborts while the
// others wait in a barrier that never completes, and the job's exit status is
// not 0. ctest reads the output (tests/CMakeLists.txt: abort/ends_the_job);
// "after abort" would mean MPI_Abort returned.
#include <cstdio>
#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  if (comm.rank() == 0) {
    std::printf("rank 0: before abort\n");
    std::fflush(stdout);
    comm.abort(3);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 never arrives: only the abort ends this
  std::printf("rank %d: after abort\n", comm.rank());
  return 0;
}
