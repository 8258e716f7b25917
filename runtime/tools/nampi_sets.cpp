// nampi-sets: the process sets of this user's running jobs (nampi::universe), from the set
// directory ($NAMPI_SETS_DIR, else $XDG_RUNTIME_DIR/nampi-sets, else /tmp/nampi-sets-<uid>).
//
//   nampi-sets list        one row per set: id, name, size, host, root pid, start, command
//   nampi-sets dir         the directory it reads
//
// Listing removes the entries of jobs that are gone. It needs no MPI.
#include <nampi/global/set_directory.hpp>

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
  std::fprintf(stderr, "usage: nampi-sets list | dir\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return usage();
  const std::string command = argv[1];
  try {
    nampi::set_directory directory = nampi::set_directory::standard();
    if (command == "dir") {
      std::printf("%s\n", directory.path().c_str());
      return 0;
    }
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
