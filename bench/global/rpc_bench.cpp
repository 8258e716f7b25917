// Global process addressing (nampi/global.hpp, issue 17): what a routed RPC costs against
// plain MPI, by hops, and the paper's per-connection cost C_c = T / (n k). Launched by
// bench/global_bench.py, which starts the jobs and collects the JSON lines they print.
//
//   rpc_bench hops ITER               2 ranks: plain MPI_Send/MPI_Recv round trip (8 bytes)
//                                     against u.call(ping) to the other rank (1 hop each way)
//   rpc_bench serve NAME FILE         a set that answers calls until FILE exists
//   rpc_bench remote NAME PEER ITER   1 rank: links to PEER's root on demand, then pings
//                                     PEER:0 (1 hop each way) and PEER:1 (2: via the root)
//   rpc_bench cc ITER                 n ranks: connection data (64 bytes) from k peers each,
//                                     by RPC to just those k, against one MPI_Allgather of all
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nampi/global.hpp>
#include <nampi/nampi.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace nampi::params;
using clock_type = std::chrono::steady_clock;

namespace {

double micros(clock_type::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Round trips in blocks of 50, the median block's mean: robust to a descheduled block.
template <typename F>
double round_trip_us(int iterations, F&& once) {
  std::vector<double> blocks;
  for (int done = 0; done < iterations; done += 50) {
    const auto start = clock_type::now();
    for (int i = 0; i < 50; ++i) once();
    blocks.push_back(micros(clock_type::now() - start) / 50);
  }
  return median(blocks);
}

using conninfo = std::array<char, 64>;  // what a peer needs to connect: 64 bytes of "address"

conninfo my_conninfo(int rank) {
  conninfo c{};
  std::snprintf(c.data(), c.size(), "addr-of-rank-%d", rank);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv, nampi::thread_multiple);
  nampi::Communicator world;
  if (argc < 3) return 2;
  const std::string mode = argv[1];
  const int rank = world.rank(), size = world.size();

  if (mode == "hops") {
    const int iterations = std::atoi(argv[2]);
    nampi::universe u(world, set_name("bench-hops-" + std::to_string(::getpid())));
    // Plain MPI: an 8-byte ping-pong on a communicator of its own.
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    long long token = 0;
    double mpi_us = 0;
    if (rank == 0) {
      mpi_us = round_trip_us(iterations, [&] {
        MPI_Send(&token, 1, MPI_LONG_LONG, 1, 0, comm);
        MPI_Recv(&token, 1, MPI_LONG_LONG, 1, 0, comm, MPI_STATUS_IGNORE);
      });
      token = -1;
      MPI_Send(&token, 1, MPI_LONG_LONG, 1, 0, comm);
    } else if (rank == 1) {
      for (;;) {
        MPI_Recv(&token, 1, MPI_LONG_LONG, 0, 0, comm, MPI_STATUS_IGNORE);
        if (token < 0) break;
        MPI_Send(&token, 1, MPI_LONG_LONG, 0, 0, comm);
      }
    }
    world.barrier();
    if (rank == 0) {
      const nampi::uid other(u.id(), 1);
      u.call(other, "ping");  // warm up
      const double rpc_us = round_trip_us(iterations, [&] { u.call(other, "ping"); });
      std::printf("{\"what\": \"hops\", \"ranks\": %d, \"mpi_rtt_us\": %.2f, \"rpc_1hop_us\": %.2f}\n",
                  size, mpi_us, rpc_us);
    }
    world.barrier();  // rank 1 serves (progress thread) until rank 0 is done
    MPI_Comm_free(&comm);
    return 0;
  }

  if (mode == "serve") {
    nampi::universe u(world, set_name(argv[2]));
    while (::access(argv[3], F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    world.barrier();
    return 0;
  }

  if (mode == "remote") {
    nampi::universe u(world, set_name(argv[2]));
    const std::string peer = argv[3];
    const int iterations = std::atoi(argv[4]);
    const nampi::uid root = u.uid_of(peer, 0), other = u.uid_of(peer, 1);
    const auto start = clock_type::now();
    u.call(root, "ping", timeout(std::chrono::seconds(30)));  // links on demand
    const double link_us = micros(clock_type::now() - start);
    u.call(other, "ping");
    const double one = round_trip_us(iterations, [&] { u.call(root, "ping"); });
    const double two = round_trip_us(iterations, [&] { u.call(other, "ping"); });
    std::printf("{\"what\": \"remote\", \"link_us\": %.1f, \"rpc_linked_1hop_us\": %.2f, "
                "\"rpc_linked_2hop_us\": %.2f}\n",
                link_us, one, two);
    return 0;
  }

  if (mode == "cc") {
    const int iterations = std::atoi(argv[2]);
    nampi::universe u(world, set_name("bench-cc-" + std::to_string(::getpid())));
    u.on("conninfo", [rank] { return my_conninfo(rank); });
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    std::vector<conninfo> all(static_cast<std::size_t>(size));
    std::vector<double> allgather_s;
    for (int i = 0; i < iterations; ++i) {
      MPI_Barrier(comm);
      const auto start = clock_type::now();
      const conninfo mine = my_conninfo(rank);
      MPI_Allgather(mine.data(), 64, MPI_CHAR, all.data(), 64, MPI_CHAR, comm);
      MPI_Barrier(comm);
      allgather_s.push_back(std::chrono::duration<double>(clock_type::now() - start).count());
    }
    const double t_all = median(allgather_s);
    for (int k = 1; k < size; ++k) {
      std::vector<double> rpc_s;
      for (int i = 0; i < iterations; ++i) {
        MPI_Barrier(comm);
        const auto start = clock_type::now();
        for (int j = 1; j <= k; ++j) {
          const int peer = (rank + j) % size;
          const auto c = u.call<conninfo>(nampi::uid(u.id(), peer), "conninfo");
          if (c != my_conninfo(peer)) return 1;
        }
        MPI_Barrier(comm);
        rpc_s.push_back(std::chrono::duration<double>(clock_type::now() - start).count());
      }
      const double t_rpc = median(rpc_s);
      if (rank == 0)
        std::printf("{\"what\": \"cc\", \"ranks\": %d, \"k\": %d, \"rpc_cc_us\": %.3f, "
                    "\"allgather_cc_us\": %.3f}\n",
                    size, k, t_rpc * 1e6 / (size * k), t_all * 1e6 / (size * k));
    }
    MPI_Comm_free(&comm);
    return 0;
  }
  return 2;
}
