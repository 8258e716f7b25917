// Misuse on a range communicator: its reductions check the op as the communicator's do (the
// same generated checks), here a function pointer typed for float on ints.
// clang-format off
// expect-error: nampi: scan_single: parameter 'op': the operation takes another type than the elements, which it would convert (the note names both)
// expect-note: 'nampi::detail::the_operation_takes<float>::the_elements_are<int>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>

using namespace nampi::params;

namespace {
float add(float a, float b) { return a + b; }
}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto r = comm.range(first(0), last(comm.size() - 1));
  int prefix = r.scan_single(send_buf(comm.rank()), op(&add));
  (void)prefix;
}
