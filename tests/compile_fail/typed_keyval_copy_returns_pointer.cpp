// Misuse: a keyval copy callable returning a bare pointer (it must return std::optional<void*>,
// so that "no copy" cannot be mistaken for a copy whose value is nullptr).
// clang-format off
// expect-error: nampi::mpi::comm_create_keyval: parameter 'comm_copy_attr_fn' is not accepted by nampi::mpi::callable::comm_copy_attr_function
// clang-format on
#include <nampi/mpi/communicators.hpp>

int main() {
  const int keyval =
      nampi::mpi::comm_create_keyval([](nampi::mpi::comm, int, void* value) { return value; },
                                     [](nampi::mpi::comm, int, void*) {});
  (void)keyval;
}
