// Misuse: as_serialized of a type cereal cannot serialize (no serialize function).
// clang-format off
// expect-error: nampi: as_serialized: cereal cannot serialize this type with the chosen archive
// clang-format on
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>

using namespace nampi::params;

struct point {
  std::string label;
  double x = 0;
};

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  point p{"origin", 0.0};
  comm.send(send_buf(nampi::as_serialized(p)), dest(0));
}
