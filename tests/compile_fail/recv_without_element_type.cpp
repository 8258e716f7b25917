// Misuse: recv with neither an element type (recv<T>) nor a recv_buf.
// expect-error: nampi: recv: name the element type (recv<T>(...)) or pass recv_buf
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  comm.recv(source(0));
}
