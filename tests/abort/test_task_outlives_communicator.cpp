// A nampi::task must not outlive the communicators it was made with: here a task made with a
// duplicate of MPI_COMM_WORLD is still unstarted when the duplicate is freed, so the task
// could only go on with a freed handle. Freeing it ends the program with a message that says
// so (nampi/detail/own_context.hpp); ctest reads the message (tests/CMakeLists.txt:
// abort/task_outlives_communicator). "after the free" would mean the free went through.
#include <cstdio>
#include <nampi/task.hpp>  // alone: it brings the whole API

namespace {
nampi::task<int> size_of(const nampi::Communicator& comm) {
  co_return co_await comm.iallreduce_single(nampi::params::send_buf(1),
                                            nampi::params::op(std::plus<>{}));
}
}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  nampi::task<int> pending;
  {
    nampi::OwnedCommunicator mine = world.dup();
    pending = size_of(mine);
  }  // freed here, while `pending` still refers to it
  std::printf("rank %d: after the free\n", world.rank());
  return 0;
}
