// Misuse: sending elements that are not trivially copyable and have no MPI datatype (a struct
// holding a std::string; a vector of std::string is a buffer of containers, whose message
// alltoallv_nested_vectors checks).
// clang-format off
// expect-error: nampi: this type is not trivially copyable and has no MPI datatype: opt in with nampi::struct_type or specialize nampi::type_traits for it, or send it serialized with nampi::as_serialized
// clang-format on
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

struct Named {
  std::string name;
};

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<Named> v{{"a"}, {"b"}};
  comm.send(send_buf(v), dest(0));
}
