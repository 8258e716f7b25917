// Misuse: resize_to_fit on a std::array recv_buf, which cannot be resized.
// expect-error: nampi: resize_to_fit needs a resizable container
#include <array>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::array<int, 4> a{};
  comm.recv(source(0), recv_buf<nampi::resize_to_fit>(a));
}
