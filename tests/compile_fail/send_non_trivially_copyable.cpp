// Misuse: sending std::string elements, which are not trivially copyable.
// clang-format off
// expect-error: nampi: this type is not trivially copyable and has no MPI datatype: opt in with nampi::struct_type or specialize nampi::type_traits for it, or send it serialized with nampi::as_serialized
// clang-format on
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<std::string> v{"a", "b"};
  comm.send(send_buf(v), dest(0));
}
