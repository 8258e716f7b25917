// Misuse: sendrecv<T> (as recv<T>) with T another type than send_buf's elements: the sizes
// the ranks exchange count send_buf's elements, so a T of another size would misread them.
// clang-format off
// expect-error: nampi: sendrecv: sendrecv<T> receives elements of 'send_buf' (the sizes exchanged count them): T must be their type
// clang-format on
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  auto got = comm.sendrecv<double>(send_buf(v), dest(0));
}
