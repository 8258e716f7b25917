// Misuse: taking idup's pending result as the communicator (it exists once the call completes).
// expect-error: nampi: a nonblocking call returns a pending result, not its value: call wait()
#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  nampi::OwnedCommunicator twin = comm.idup();
  return twin.size();
}
