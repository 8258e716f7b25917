// Misuse: op given a callable whose parameters are not the buffer's elements.
// clang-format off
// expect-error: nampi: allreduce: parameter 'op': the operation takes another type than the elements, which it would convert (the note names both)
// expect-note: 'nampi::detail::the_operation_takes<std::__cxx11::basic_string<char> >::the_elements_are<int>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allreduce(send_buf(v), op([](const std::string& a, const std::string&) { return a; }));
}
