// nampi-sets: the process sets of this user's running jobs (nampi::universe), from the set
// directory ($NAMPI_SETS_DIR, else $XDG_RUNTIME_DIR/nampi-sets, else /tmp/nampi-sets-<uid>).
//
//   nampi-sets list        one row per set: id, name, size, host, root pid, start, command
//   nampi-sets ping NAME   round-trip times of the built-in RPC "ping" to each rank of set NAME
//   nampi-sets dir         the directory it reads
//
// Listing removes the entries of jobs that are gone; it needs no MPI. ping starts MPI as a
// singleton (no mpiexec), joins as a set of its own ("nampi-sets-<pid>") and links to the
// set's root on demand, as the paper's mpc_sets does; the set must serve calls (a progress
// thread: MPI_THREAD_MULTIPLE). With MPICH, run it with MPIR_CVAR_CH4_NETMOD=ofi as the jobs.
#include <nampi/global.hpp>
#include <nampi/nampi.hpp>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <string>

namespace {

std::string local_time(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm parts{};
  localtime_r(&seconds, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &parts);
  return text;
}

int usage() {
  std::fprintf(stderr, "usage: nampi-sets list | ping NAME | dir\n");
  return 2;
}

// Median round trip of `rounds` pings to each rank of the set `name`.
int ping(int argc, char** argv, const std::string& name, int rounds) {
  nampi::Environment env(argc, argv, nampi::thread_multiple);
  nampi::universe u(nampi::Communicator(MPI_COMM_SELF),
                    nampi::params::set_name("nampi-sets-" + std::to_string(::getpid())));
  const auto target = u.directory_entry(name);
  if (!target) {
    std::fprintf(stderr, "nampi-sets: no set named '%s' in %s\n", name.c_str(),
                 u.directory().path().c_str());
    return 1;
  }
  std::printf("%-6s  %-20s  %-24s  %12s\n", "RANK", "UID", "NAME", "RTT (us)");
  int failures = 0;
  for (int rank = 0; rank < target->size; ++rank) {
    const nampi::uid id(target->id, rank);
    std::vector<double> rtt;
    try {
      for (int i = 0; i < rounds; ++i) {
        const auto start = std::chrono::steady_clock::now();
        u.call(id, "ping", nampi::params::timeout(std::chrono::seconds(5)));
        rtt.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      }
      std::sort(rtt.begin(), rtt.end());
      std::printf("%-6d  %-20llu  %-24s  %12.1f\n", rank, static_cast<unsigned long long>(id.value()),
                  u.name_of(id).c_str(), rtt[rtt.size() / 2]);
    } catch (const std::exception& e) {
      std::printf("%-6d  %-20llu  %-24s  %12s  %s\n", rank, static_cast<unsigned long long>(id.value()),
                  u.name_of(id).c_str(), "-", e.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string command = argv[1];
  try {
    nampi::set_directory directory = nampi::set_directory::standard();
    if (command == "dir") {
      std::printf("%s\n", directory.path().c_str());
      return 0;
    }
    if (command == "ping") return argc == 3 ? ping(argc, argv, argv[2], 11) : usage();
    if (command != "list") return usage();
    const auto sets = directory.list();
    std::printf("%-10s  %-16s  %5s  %-12s  %8s  %-19s  %s\n", "SET ID", "NAME", "SIZE", "HOST",
                "PID", "STARTED", "CMD");
    for (const auto& s : sets)
      std::printf("%-10u  %-16s  %5d  %-12s  %8ld  %-19s  %s\n", s.id, s.name.c_str(), s.size,
                  s.host.c_str(), static_cast<long>(s.pid), local_time(s.start).c_str(),
                  s.command.c_str());
    std::printf("%zu set%s in %s\n", sets.size(), sets.size() == 1 ? "" : "s",
                directory.path().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nampi-sets: %s\n", e.what());
    return 1;
  }
}
