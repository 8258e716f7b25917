// comm.abort(3) must end every process of the job: rank 0 aborts while the
// others wait in a barrier that never completes, and the job's exit status is
// 3. ctest reads the output (tests/CMakeLists.txt: abort/ends_the_job);
// "after abort" would mean MPI_Abort returned.
#include <cstdio>
#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  if (comm.rank() == 0) {
    comm.abort(3);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 never arrives: only the abort ends this
  std::printf("rank %d: after abort\n", comm.rank());
  return 0;
}
