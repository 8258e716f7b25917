// Misuse: a C free function given to the callable overload of nampi::mpi::grequest_start (its
// callables' state is released by nampi's own free callback, so only callables are taken; the
// C overload takes C functions and extra_state).
// clang-format off
// expect-error: nampi::mpi::grequest_start: parameter 'free_fn' is not accepted by nampi::mpi::callable::grequest_free_function
// clang-format on
#include <nampi/mpi/external.hpp>

int free_state(void*) { return MPI_SUCCESS; }

int main() {
  nampi::mpi::request request =
      nampi::mpi::grequest_start([](MPI_Status&) {}, &free_state, [](bool) {});
  (void)request;
}
