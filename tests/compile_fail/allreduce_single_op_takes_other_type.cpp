// Misuse: a user op typed for int on doubles would convert every element (1.5 + 1.5 gave 2).
// The message names the call and the parameter, the note the two types (nampi/detail/op_checks.hpp).
// clang-format off
// expect-error: nampi: allreduce_single: parameter 'op': the operation takes another type than the elements, which it would convert (the note names both)
// expect-note: 'nampi::detail::the_operation_takes<int>::the_elements_are<double>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  double sum = comm.allreduce_single(send_buf(1.5), op([](int a, int b) { return a + b; }));
  (void)sum;
}
