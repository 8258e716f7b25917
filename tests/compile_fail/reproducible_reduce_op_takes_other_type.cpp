// Misuse of a plugin's call: the reproducible_reduce plugin checks its op like the core's
// reductions (spec/plugins/reproducible_reduce.yaml: element), here one typed for float on doubles.
// clang-format off
// expect-error: nampi: reproducible_reduce: parameter 'op': the operation takes another type than the elements, which it would convert (the note names both)
// expect-note: 'nampi::detail::the_operation_takes<float>::the_elements_are<double>' evaluates to false
// clang-format on
#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::BasicCommunicator<nampi::plugins::reproducible_reduce> comm;
  std::vector<double> v{1.5, 2.5};
  double sum = comm.reproducible_reduce(send_buf(v), op([](float a, float b) { return a + b; }));
  (void)sum;
}
