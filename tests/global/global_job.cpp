// One job of the global-addressing tests (tests/global/run_global_tests.py launches several
// with separate mpiexec commands): registers as a process set, then does what its mode says.
//
//   global_job connect NAME PEER...   connect to each PEER in turn and exchange data
//   global_job hold NAME FILE         register, then wait until FILE exists
//   global_job register NAME          register and leave
//   global_job probe NAME             exit 77 where this MPI cannot open ports
// A refused registration prints the message and exits with 3.
//
// Every line it prints starts with "[NAME rank R]" so the driver can check each rank.
#include <nampi/global.hpp>
#include <nampi/nampi.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace nampi::params;

namespace {

int fail(const char* what) {
  std::fprintf(stderr, "FAILED: %s\n", what);
  std::fflush(stderr);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  if (argc < 3) return fail("usage: global_job MODE NAME ...");
  const std::string mode = argv[1], name = argv[2];
  const int rank = world.rank();

  std::optional<nampi::universe> registered;
  try {
    registered.emplace(world, set_name(name));
  } catch (const nampi::set_error& e) {
    std::printf("[%s rank %d] refused: %s\n", name.c_str(), rank, e.what());
    std::fflush(stdout);
    return 3;
  }
  nampi::universe& u = *registered;
  if (mode == "register") return 0;
  if (mode == "probe") {  // 77: this MPI cannot open ports, the driver skips its cases
    if (!u.can_connect() && rank == 0) std::printf("cannot connect: %s\n", u.port_error().c_str());
    return u.can_connect() ? 0 : 77;
  }

  std::printf("[%s rank %d] uid %llu %s size %d\n", name.c_str(), rank,
              static_cast<unsigned long long>(u.uid().value()), u.name_of(u.uid()).c_str(),
              world.size());
  std::fflush(stdout);
  if (u.uid().rank() != rank || u.uid().set_id() != u.id()) return fail("uid layout");

  if (mode == "hold") {
    if (argc < 4) return fail("hold needs a file");
    while (::access(argv[3], F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    world.barrier();
    return 0;
  }

  if (mode == "connect") {
    for (int i = 3; i < argc; ++i) {
      const std::string peer = argv[i];
      nampi::Communicator inter = u.connect(peer, timeout(std::chrono::seconds(60)));
      if (!inter.is_inter()) return fail("connect gave no intercommunicator");
      const int remote = inter.remote_size();
      // Every rank sends its uid to remote rank 0; remote rank 0 checks them all (data test).
      const unsigned long long mine = u.uid().value();
      if (rank == 0) {
        std::vector<unsigned long long> got(static_cast<std::size_t>(remote));
        for (int r = 0; r < remote; ++r) got[r] = 0;
        // Both roots send before they receive: buffered by MPI (a few bytes), and nampi's
        // send returns when the buffer may be reused.
        inter.send(send_buf(mine), dest(0), tag(7));
        for (int r = 0; r < remote; ++r)
          inter.recv(recv_buf(got[r]), source(r), tag(7));
        for (int r = 0; r < remote; ++r) {
          const nampi::uid id(got[r]);
          if (id != u.uid_of(peer, r)) return fail("a peer's uid is not its set id and rank");
          std::printf("[%s rank %d] peer %s rank %d uid %llu %s\n", name.c_str(), rank,
                      peer.c_str(), r, got[r], u.name_of(id).c_str());
        }
      } else {
        inter.send(send_buf(mine), dest(0), tag(7));
      }
      // A collective over the intercommunicator: the sum of the remote side's ranks.
      const int remote_sum = inter.allreduce_single(send_buf(rank), op(std::plus<>{}));
      if (remote_sum != remote * (remote - 1) / 2) return fail("allreduce over the intercommunicator");
      if (u.connect(peer).mpi_communicator() != inter.mpi_communicator())
        return fail("connect is not cached");
      std::printf("[%s rank %d] connected %s remote_size %d remote_sum %d\n", name.c_str(), rank,
                  peer.c_str(), remote, remote_sum);
      std::fflush(stdout);
    }
    return 0;
  }
  return fail("unknown mode");
}
