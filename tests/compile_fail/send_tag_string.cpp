// Misuse: a string as a tag: one line naming tag, not a cascade inside the call.
// expect-error: nampi: tag: expects an integer (or an enum)
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.send(send_buf(v), dest(0), tag("x"));
}
