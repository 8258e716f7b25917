// The set directory: one file per registered process set (nampi/detail/global/set_entry.hpp), so
// that jobs of one user find each other by name. No MPI here: `nampi-sets list` reads it
// without MPI.
//
// Where: $NAMPI_SETS_DIR, else $XDG_RUNTIME_DIR/nampi-sets, else /tmp/nampi-sets-<uid>
// (created, mode 0700). Files: `<name>.set` and `<id>.id`, two hard links of one complete
// file (written under a temporary name first, so a reader never sees half an entry).
// Claims and removals hold an exclusive flock on `<dir>/.lock` (released by the kernel if
// the holder dies) and create the links with link(2), which fails if the name exists: two
// jobs racing for a name or an id never both win. An entry whose root process is gone
// (same host, kill(pid, 0) fails with ESRCH) is dead; whoever finds it removes it.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nampi/detail/global/set_entry.hpp"
#include "nampi/detail/global/std_parts.hpp"
#include "nampi/detail/splitmix.hpp"

namespace nampi {

// Registering or finding a process set failed (a name taken, a bad name, the directory
// unusable, a set that did not appear in time): the message says which and why.
class set_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail::sets {

inline std::string errno_text(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Creates `path` and its missing parents (mode 0700 for the ones created).
inline void make_directories(const std::string& path) {
  for (std::size_t i = 1; i <= path.size(); ++i) {
    if (i != path.size() && path[i] != '/') continue;
    const std::string prefix = path.substr(0, i);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      throw set_error(errno_text("nampi: cannot create the set directory " + prefix));
  }
}

inline std::optional<std::string> read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

// Writes `text` to `path` whole: to a temporary name first, then renamed, so that a reader
// never sees part of it. Best effort: where it cannot, the reader keeps waiting.
inline void write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".part";
  if (FILE* f = std::fopen(tmp.c_str(), "w")) {
    const bool written = std::fputs(text.c_str(), f) >= 0;
    if (std::fclose(f) == 0 && written)
      std::rename(tmp.c_str(), path.c_str());
    else
      std::remove(tmp.c_str());
  }
}

// Random numbers for set ids and file names: splitmix64 seeded from /dev/urandom, or from the
// pid and the clock where it cannot be read (<random> would add 0.1 s to every unit that
// includes nampi/global.hpp, for 12 bits per registration).
class id_random {
 public:
  id_random() {
    const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::read(fd, &state_, sizeof state_) != static_cast<ssize_t>(sizeof state_))
      state_ =
          static_cast<std::uint64_t>(::getpid()) << 32 ^
          static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    if (fd >= 0) ::close(fd);
  }
  std::uint64_t operator()() noexcept { return detail::splitmix64(state_); }

 private:
  std::uint64_t state_ = 0;
};

inline std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

// This process's command line, its arguments separated by spaces (Linux: /proc/self/cmdline).
inline std::string command_line() {
  std::string text = read_file("/proc/self/cmdline").value_or("");
  for (char& c : text)
    if (c == '\0' || c == '\n') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// Holds the directory's lock while it lives.
class directory_lock {
 public:
  explicit directory_lock(const std::string& dir) {
    const std::string path = dir + "/.lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) throw set_error(errno_text("nampi: cannot open " + path));
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        const std::string text = errno_text("nampi: cannot lock " + path);
        ::close(fd_);
        throw set_error(text);
      }
    }
  }
  directory_lock(const directory_lock&) = delete;
  directory_lock& operator=(const directory_lock&) = delete;
  ~directory_lock() { ::close(fd_); }  // closing releases the flock

 private:
  int fd_;
};

}  // namespace detail::sets

class set_directory {
 public:
  // The user's directory (see above), created if missing.
  static set_directory standard() {
    if (const char* dir = std::getenv("NAMPI_SETS_DIR"); dir && *dir) return set_directory(dir);
    if (const char* run = std::getenv("XDG_RUNTIME_DIR"); run && *run)
      return set_directory(std::string(run) + "/nampi-sets");
    return set_directory("/tmp/nampi-sets-" + std::to_string(::getuid()));
  }

  explicit set_directory(std::string path) : path_(std::move(path)) {
    while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
    detail::sets::make_directories(path_);
  }

  const std::string& path() const noexcept { return path_; }

  // Whether `name` can name a set: letters, digits, '_', '-', '.', not starting with '.',
  // at most 200 characters (it becomes a file name).
  static bool valid_name(std::string_view name) {
    if (name.empty() || name.size() > 200 || name.front() == '.') return false;
    for (const char c : name) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
      if (!ok) return false;
    }
    return true;
  }

  // Registers `entry` under a fresh set id (20 bits of the user id, 12 random bits) and its
  // name (the id in decimal where it has none); returns it with both filled in. Throws
  // set_error if a live set has the name. Dead entries in the way are removed.
  set_info claim(set_info entry) {
    if (!entry.name.empty() && !valid_name(entry.name))
      throw set_error("nampi::universe: '" + entry.name +
                      "' cannot name a set (letters, digits, '_', '-', '.'; not starting with "
                      "'.'; at most 200 characters)");
    detail::sets::id_random random;
    const detail::sets::directory_lock lock(path_);
    const bool named = !entry.name.empty();
    for (int attempt = 0; attempt < 8192; ++attempt) {
      entry.id = ((static_cast<std::uint32_t>(::getuid()) & 0xfffffu) << 12) |
                 static_cast<std::uint32_t>(random() & 0xfffu);
      if (entry.id == 0) continue;  // 0 is no set (root's ids start there): its entry would stay
      if (!named) entry.name = std::to_string(entry.id);
      const std::string id_file = id_path(entry.id);
      if (exists(id_file)) {
        remove_if_dead_locked(read(id_file));
        if (exists(id_file)) continue;  // a live set has it: another id
      }
      const std::string name_file = name_path(entry.name);
      if (exists(name_file)) {
        remove_if_dead_locked(read(name_file));
        if (const auto holder = read(name_file)) {
          if (!named) continue;
          throw set_error("nampi::universe: the set name '" + entry.name +
                          "' is taken by a running job (set " + std::to_string(holder->id) +
                          ", pid " + std::to_string(holder->pid) + " on " + holder->host + ": " +
                          holder->command + "); choose another set_name(...)");
        }
        if (exists(name_file))  // not an entry nampi wrote: leave it alone
          throw set_error("nampi::universe: " + name_file +
                          " exists and is no set entry; remove it or choose another name");
      }
      const std::string tmp =
          path_ + "/.tmp." + std::to_string(::getpid()) + "." + std::to_string(random());
      write_new(tmp, entry.to_text());
      const bool have_id = ::link(tmp.c_str(), id_file.c_str()) == 0;
      const bool have_name = have_id && ::link(tmp.c_str(), name_file.c_str()) == 0;
      const int link_errno = errno;
      ::unlink(tmp.c_str());
      if (have_name) return entry;
      if (have_id) ::unlink(id_file.c_str());
      if (link_errno != EEXIST)
        throw set_error("nampi::universe: cannot register in " + path_ + ": " +
                        std::strerror(link_errno));
    }
    throw set_error("nampi::universe: no free set id in " + path_ +
                    " (4096 per user; remove the files of jobs that are gone)");
  }

  // Removes the entry of `entry`'s set if it still is this one (same id and root pid): at the
  // end of the set, or where a set on another host stopped answering (nampi::universe).
  void release(const set_info& entry) {
    const detail::sets::directory_lock lock(path_);
    unlink_if_same(name_path(entry.name), entry);
    unlink_if_same(id_path(entry.id), entry);
  }

  // Every set registered and alive, in the order of their start; removes dead entries.
  std::vector<set_info> list() {
    std::vector<set_info> sets;
    DIR* dir = ::opendir(path_.c_str());
    if (!dir) throw set_error(detail::sets::errno_text("nampi: cannot read " + path_));
    std::vector<std::string> files, hidden;
    while (const dirent* e = ::readdir(dir)) {
      const std::string_view name = e->d_name;
      if (name.size() > 4 && name.front() != '.' && name.substr(name.size() - 4) == ".set")
        files.emplace_back(name);
      else if (name.starts_with(".pair.") || name.starts_with(".link"))
        hidden.emplace_back(name);
    }
    ::closedir(dir);
    for (const auto& file : files)
      if (auto s = read(path_ + "/" + file)) {
        if (alive(*s))
          sets.push_back(std::move(*s));
        else
          remove_if_dead(s);
      }
    remove_orphans(hidden, sets);
    std::sort(sets.begin(), sets.end(), [](const set_info& a, const set_info& b) {
      return a.start != b.start ? a.start < b.start : a.id < b.id;
    });
    return sets;
  }

  // The live set of this name or id, if there is one (a dead one is removed).
  std::optional<set_info> find(std::string_view name) {
    if (!valid_name(name)) return std::nullopt;
    return find_at(name_path(name));
  }
  std::optional<set_info> find(std::uint32_t id) { return find_at(id_path(id)); }

  // Whether `s` may still run: its root process exists (on another host: assumed).
  static bool alive(const set_info& s) {
    if (s.host != detail::sets::host_name()) return true;
    return ::kill(s.pid, 0) == 0 || errno != ESRCH;
  }

 private:
  std::string path_;

  std::string name_path(std::string_view name) const {
    return path_ + "/" + std::string(name) + ".set";
  }
  std::string id_path(std::uint32_t id) const { return path_ + "/" + std::to_string(id) + ".id"; }

  static bool exists(const std::string& path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
  }
  static std::optional<set_info> read(const std::string& path) {
    const auto text = detail::sets::read_file(path);
    if (!text) return std::nullopt;
    return set_info::from_text(*text);
  }

  std::optional<set_info> find_at(const std::string& path) {
    auto s = read(path);
    if (s && !alive(*s)) {
      remove_if_dead(s);
      return std::nullopt;
    }
    return s;
  }

  // The rendezvous files of connect() and of links on demand (nampi/detail/global/universe.hpp:
  // `.pair.<acceptor>.<connector>`, `.link.<set>`, `.linkport.<set>.<uid>`) whose set is no
  // longer registered: left by a job that was killed while it waited. Their set's name is
  // the part after the prefix, up to the next '.' (names may hold dots: every registered
  // name that the rest starts with keeps the file).
  void remove_orphans(const std::vector<std::string>& hidden, const std::vector<set_info>& live) {
    for (const auto& file : hidden) {
      std::string_view rest = file;
      for (const std::string_view prefix : {".pair.", ".linkport.", ".link."})
        if (rest.starts_with(prefix)) {
          rest.remove_prefix(prefix.size());
          break;
        }
      bool owned = false;
      for (const auto& s : live)
        owned = owned || (rest.starts_with(s.name) &&
                          (rest.size() == s.name.size() || rest[s.name.size()] == '.'));
      if (!owned) ::unlink((path_ + "/" + file).c_str());
    }
  }

  // Removes the files of a dead set, under the directory's lock.
  void remove_if_dead(const std::optional<set_info>& s) {
    if (!s || alive(*s)) return;
    const detail::sets::directory_lock lock(path_);
    remove_if_dead_locked(s);
  }
  // The same where the caller holds the lock (a second flock of this process on another
  // open file description of .lock would wait for the first forever).
  void remove_if_dead_locked(const std::optional<set_info>& s) {
    if (!s || alive(*s)) return;
    unlink_if_same(name_path(s->name), *s);
    unlink_if_same(id_path(s->id), *s);
  }

  static void unlink_if_same(const std::string& path, const set_info& s) {
    const auto now = read(path);
    if (now && now->id == s.id && now->pid == s.pid && now->host == s.host) ::unlink(path.c_str());
  }

  static void write_new(const std::string& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw set_error(detail::sets::errno_text("nampi: cannot create " + path));
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const std::string what = detail::sets::errno_text("nampi: cannot write " + path);
        ::close(fd);
        ::unlink(path.c_str());
        throw set_error(what);
      }
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  }
};

}  // namespace nampi
