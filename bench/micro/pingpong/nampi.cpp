#include <nampi/nampi.hpp>

#include "common.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  bench::args args(argc, argv);
  const int bytes = static_cast<int>(args.get_int("bytes", 8));
  const int iters = static_cast<int>(args.get_int("iters", 1000));
  const int reps = static_cast<int>(args.get_int("reps", 5));
  bench::require(comm.size() >= 2, "pingpong needs at least 2 ranks");
  auto message = micro::make_message(bytes, comm.rank());

  double seconds = bench::measure(reps, [&] {
    for (int i = 0; i < iters; ++i) {
      if (comm.rank() == 0) {
        comm.send(send_buf(message), dest(1));
        comm.recv(recv_buf(message), recv_count(bytes), source(1));
      } else if (comm.rank() == 1) {
        comm.recv(recv_buf(message), recv_count(bytes), source(0));
        comm.send(send_buf(message), dest(0));
      }
    }
  });
  auto checksum = micro::check(message, comm.rank());
  bench::report("pingpong", "nampi", comm.size(), seconds / iters, bench::hex(checksum));
}
