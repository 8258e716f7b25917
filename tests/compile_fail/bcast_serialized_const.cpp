// Misuse: bcast receives into the object of as_serialized, which is const here.
// expect-error: nampi: a call that receives into as_serialized(x) needs a non-const x
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const std::map<std::string, int> table{{"a", 1}};
  comm.bcast(send_recv_buf(nampi::as_serialized(table)));
}
