// Misuse: a generic op whose result the elements cannot hold (a string from two ints), here
// on a nonblocking call with the op marked commutative.
// clang-format off
// expect-error: nampi: iallreduce: parameter 'op': the operation returns a type the elements cannot hold (the note names both)
// expect-note: 'nampi::detail::the_operation_returns<std::__cxx11::basic_string<char> >::convertible_to<int>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  auto pending = comm.iallreduce(
      send_buf(v), op([](auto a, auto b) { return std::to_string(a + b); }, nampi::commutative));
}
