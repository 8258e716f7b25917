// Misuse: a callable that cannot combine two elements (it takes one).
// clang-format off
// expect-error: nampi: reduce: parameter 'op': the operation cannot combine two elements (it takes two, by value or const reference; the note names it and the elements)
// expect-note: >::combines_two<long int>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<long> v{1, 2, 3};
  auto at_root = comm.reduce(send_buf(v), op([](long a) { return a; }));
}
