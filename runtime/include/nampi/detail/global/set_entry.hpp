// One process set of the set directory (nampi/detail/global/set_directory.hpp): what a job that
// registered with nampi::universe tells the others about itself, and its text form, one
// `key=value` per line (readable by `cat`, parsed by nampi-sets). No MPI here.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nampi/detail/global/std_parts.hpp"

namespace nampi {

struct set_info {
  std::string name;      // what connect() and `nampi-sets ping` take
  std::uint32_t id = 0;  // 20 bits of the user id, 12 random bits (the upper half of a uid)
  int size = 0;          // processes in the set
  std::string command;   // the root process's command line, arguments separated by spaces
  std::string host;      // where the root process runs
  pid_t pid = 0;         // the root process
  std::string port;      // the root's MPI port name (MPI_Open_port); empty where none opened
  std::chrono::system_clock::time_point start;  // when it registered

  // The text of its directory file.
  std::string to_text() const {
    std::string text;
    const auto line = [&text](std::string_view key, std::string_view value) {
      text.append(key).append("=").append(value).append("\n");
    };
    line("name", name);
    line("id", std::to_string(id));
    line("size", std::to_string(size));
    line("command", command);
    line("host", host);
    line("pid", std::to_string(pid));
    line("port", port);
    line("start_ns", std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        start.time_since_epoch())
                                        .count()));
    return text;
  }

  // Parses the text of a directory file; nothing where a field is missing or malformed (a
  // file from another program, or cut short).
  static std::optional<set_info> from_text(std::string_view text) {
    set_info s;
    unsigned seen = 0;
    while (!text.empty()) {
      const auto end = text.find('\n');
      if (end == std::string_view::npos) return std::nullopt;  // every line ends with \n
      const std::string_view line = text.substr(0, end);
      text.remove_prefix(end + 1);
      const auto eq = line.find('=');
      if (eq == std::string_view::npos) return std::nullopt;
      const std::string_view key = line.substr(0, eq), value = line.substr(eq + 1);
      long long number = 0;
      const bool numeric = parse_integer(value, number);
      if (key == "name") {
        s.name = value;
        seen |= 1;
      } else if (key == "id" && numeric && number >= 0 && number <= 0xffffffffLL) {
        s.id = static_cast<std::uint32_t>(number);
        seen |= 2;
      } else if (key == "size" && numeric && number > 0 && number <= 0x7fffffff) {
        s.size = static_cast<int>(number);
        seen |= 4;
      } else if (key == "command") {
        s.command = value;
      } else if (key == "host") {
        s.host = value;
        seen |= 8;
      } else if (key == "pid" && numeric && number > 0) {
        s.pid = static_cast<pid_t>(number);
        seen |= 16;
      } else if (key == "port") {
        s.port = value;
      } else if (key == "start_ns" && numeric) {
        s.start = std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::system_clock::duration>(
                std::chrono::nanoseconds(number)));
      }
    }
    if (seen != 31 || s.name.empty()) return std::nullopt;
    return s;
  }

 private:
  static bool parse_integer(std::string_view text, long long& out) {
    if (text.empty() || text.size() > 19) return false;
    long long v = 0;
    for (const char c : text) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    out = v;
    return true;
  }
};

}  // namespace nampi
