// One job of the global-addressing tests (tests/global/run_global_tests.py launches several
// with separate mpiexec commands): registers as a process set, then does what its mode says.
//
//   global_job connect NAME PEER...   connect to each PEER in turn and exchange data
//   global_job hold NAME FILE         register, then wait until FILE exists
//   global_job register NAME          register and leave
//   global_job probe NAME             exit 77 where this MPI cannot open ports
//   global_job rpc NAME PEER          connect to PEER, then call procedures in both sets
//   global_job rpc_after_kill NAME PEER FILE   connect, ping PEER, create FILE.pinged, wait
//                                     for FILE (the driver killed PEER): a call must time out
//   global_job connect_hold NAME PEER FILE     connect to PEER, then wait for FILE
//   global_job ghost NAME ID          three calls to set ID (on another host, never answering)
//   global_job single_serve NAME PEER / single_call NAME PEER   MPI_THREAD_SINGLE: one set
//                                     serves (serve_for) until the other, which calls into
//                                     it, joins a barrier
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
#include <span>
#include <stdexcept>
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
  // Calls are served by the universe's progress thread, which needs MPI_THREAD_MULTIPLE; the
  // single_* modes ask for MPI_THREAD_SINGLE and serve calls in serve_for() and call().
  const bool single = argc > 1 && std::string(argv[1]).starts_with("single_");
  nampi::Environment env(argc, argv, single ? nampi::thread_single : nampi::thread_multiple);
  if (!single && nampi::Environment::thread_level_provided() != nampi::thread_multiple)
    return fail("MPI_THREAD_MULTIPLE not provided");
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
  // "sum": the arguments' sum plus 1000 * the rank that computed it (which process answered).
  u.on("sum", [rank](std::span<const int> xs) {
    int total = 0;
    for (const int x : xs) total += x;
    return total + 1000 * rank;
  });
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
    // The sets among the MPI-4 session's process sets (the driver checks them).
    if (rank == 0) {
      std::string line;
      for (const auto& pset : u.pset_names()) line += " " + pset;
      std::printf("[%s rank %d] psets%s\n", name.c_str(), rank, line.c_str());
      std::fflush(stdout);
    }
    while (::access(argv[3], F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    world.barrier();
    return 0;
  }

  if (mode == "connect") {
    for (int i = 3; i < argc; ++i) {
      const std::string peer = argv[i];
      // By pset-like name for the second peer onwards: connect takes both spellings.
      const std::string how = i == 3 ? peer : "nampi://" + peer;
      nampi::Communicator inter = u.connect(how, timeout(std::chrono::seconds(60)));
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
  if (mode == "rpc" || mode == "rpc_after_kill") {
    if (argc < 4) return fail("rpc needs a peer");
    const std::string peer = argv[3];
    u.on("fail", [name, rank]() -> int {
      throw std::runtime_error("boom at " + name + ":" + std::to_string(rank));
    });
    u.on("iota", [](std::span<const int> n) {
      std::vector<long> v(static_cast<std::size_t>(n[0]));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long>(i);
      return v;
    });
    nampi::Communicator inter = u.connect(peer);
    const int peer_size = inter.remote_size();
    if (!u.has_progress_thread()) return fail("no progress thread under MPI_THREAD_MULTIPLE");
    const auto t5 = timeout(std::chrono::seconds(20));
    if (mode == "rpc_after_kill") {
      if (argc < 5) return fail("rpc_after_kill needs a file");
      u.call(u.uid_of(peer, 0), "ping", t5);
      std::printf("[%s rank %d] pinged %s\n", name.c_str(), rank, peer.c_str());
      std::fflush(stdout);
      world.barrier();
      if (rank == 0) std::fclose(std::fopen((std::string(argv[4]) + ".pinged").c_str(), "w"));
      while (::access(argv[4], F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const auto start = std::chrono::steady_clock::now();
      try {
        u.call(u.uid_of(peer, 0), "ping", timeout(std::chrono::seconds(2)));
        return fail("a call to a killed process returned");
      } catch (const nampi::rpc_timeout& e) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("[%s rank %d] rpc_timeout after %.2f s: %s\n", name.c_str(), rank, s, e.what());
        if (s < 1.9 || s > 4.0) return fail("the timeout did not hold");
      }
      return 0;
    }
    // The program's wildcard receives on the set's communicator and on the connection stay
    // pending through every call below: no RPC message may meet them (nampi sends its RPCs in
    // contexts of its own), and they are cancelled at the end.
    int sink_here = 0, sink_inter = 0;
    MPI_Request pending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(&sink_here, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, u.communicator().mpi_handle(),
              &pending[0]);
    MPI_Irecv(&sink_inter, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter.mpi_handle(), &pending[1]);
    const std::vector<int> args{1, 2, 3, rank};
    // In this set: the next rank.
    const int next = (rank + 1) % world.size();
    const int got = u.call<int>(u.uid_of(name, next), "sum", args, t5);
    if (got != 6 + rank + 1000 * next) return fail("sum in this set");
    // In the other set: rank (mine mod its size).
    const int there = rank % peer_size;
    const int got_there = u.call<int>(u.uid_of(peer, there), "sum", args, t5);
    if (got_there != 6 + rank + 1000 * there) return fail("sum in the other set");
    // A vector result, a remote exception, a procedure that is not there.
    const auto v = u.call<std::vector<long>>(u.uid_of(peer, there), "iota", std::vector<int>{5}, t5);
    if (v != std::vector<long>{0, 1, 2, 3, 4}) return fail("iota");
    try {
      u.call<int>(u.uid_of(peer, there), "fail", t5);
      return fail("a remote exception was not raised");
    } catch (const nampi::rpc_error& e) {
      if (!std::strstr(e.what(), ("boom at " + peer + ":" + std::to_string(there)).c_str()))
        return fail(e.what());
    }
    try {
      u.call(u.uid_of(peer, there), "no_such_procedure", t5);
      return fail("an unknown procedure was called");
    } catch (const nampi::rpc_error& e) {
      if (!std::strstr(e.what(), "no procedure 'no_such_procedure'")) return fail(e.what());
    }
    // Built-ins: set_info, connectivity, ping.
    const auto info = nampi::set_info::from_text(u.call<std::string>(u.uid_of(peer, there), "set_info", t5));
    if (!info || info->name != peer || info->id != u.uid_of(peer, 0).set_id()) return fail("set_info");
    const std::string links = u.call<std::string>(u.uid_of(peer, there), "connectivity", t5);
    if (links.find(name + " " + std::to_string(u.id()) + " " + std::to_string(world.size())) != 0)
      return fail(("connectivity: " + links).c_str());
    u.call(u.uid_of(peer, there), "ping", t5);
    for (MPI_Request& r : pending) {
      int done = 0;
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      if (done) return fail("an RPC message met the program's wildcard receive");
      MPI_Cancel(&r);
      MPI_Status status;
      MPI_Wait(&r, &status);
      int cancelled = 0;
      MPI_Test_cancelled(&status, &cancelled);
      if (!cancelled) return fail("the program's wildcard receive took a message");
    }
    std::printf("[%s rank %d] rpc ok: %s:%d answered %d\n", name.c_str(), rank, peer.c_str(),
                there, got_there);
    std::fflush(stdout);
    inter.barrier();  // both sets stay (and serve) until every call of both is done
    return 0;
  }
  if (mode == "ghost") {  // calls to a set whose entry says it runs on another host
    if (argc < 4) return fail("ghost needs the set id");
    const nampi::uid ghost(static_cast<std::uint32_t>(std::stoul(argv[3])), 0);
    for (int i = 0; i < 3; ++i) {
      try {
        u.call(ghost, "ping", timeout(std::chrono::milliseconds(300)));
        return fail("a call to a set that never answers returned");
      } catch (const nampi::rpc_timeout& e) {
        std::printf("[%s rank %d] ghost call %d: rpc_timeout\n", name.c_str(), rank, i);
      }
    }
    std::fflush(stdout);
    return 0;
  }
  if (mode == "single_serve" || mode == "single_call") {
    // Without a progress thread: the serving set answers inside serve_for(), the calling set
    // progresses inside call(); then the caller joins the server's barrier.
    if (argc < 4) return fail("single_* needs a peer");
    const std::string peer = argv[3];
    if (u.has_progress_thread()) return fail("a progress thread under MPI_THREAD_SINGLE");
    nampi::Communicator inter = u.connect(peer);
    if (mode == "single_serve") {
      // Serves until the calling set is done: it then joins the barrier this one started.
      auto done = inter.ibarrier();
      while (!done.test()) u.serve_for(std::chrono::milliseconds(1));
      return 0;
    } else {
      const int there = rank % inter.remote_size();
      const int got = u.call<int>(u.uid_of(peer, there), "sum", std::vector<int>{4, 5}, timeout(std::chrono::seconds(20)));
      if (got != 9 + 1000 * there) return fail("sum without progress threads");
      std::printf("[%s rank %d] single-threaded call answered %d\n", name.c_str(), rank, got);
      std::fflush(stdout);
    }
    inter.ibarrier().wait();  // a nonblocking collective matches only its own kind
    return 0;
  }
  if (mode == "connect_hold") {  // connect, then wait for FILE (or to be killed)
    if (argc < 5) return fail("connect_hold needs a peer and a file");
    u.connect(argv[3]);
    std::printf("[%s rank %d] connected\n", name.c_str(), rank);
    std::fflush(stdout);
    while (::access(argv[4], F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return 0;
  }
  return fail("unknown mode");
}
