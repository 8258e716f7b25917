// nampi::universe: this job as a named process set among all of a user's jobs on the
// machine, and intercommunicators to the others by name.
//
//   nampi::universe u(comm, set_name("ocean"));  // registers; collective over comm
//   nampi::uid me = u.uid();                      // set id << 32 | rank
//   for (const nampi::set_info& s : u.sets()) ... // name, id, size, command, host, start
//   nampi::Communicator atm = u.connect("atmosphere");  // the other set calls connect("ocean")
//   atm.send(send_buf(v), dest(0));
//
// Registration: the root (rank 0) opens an MPI port (MPI_Open_port: the entry's port, and
// proof that this MPI can connect jobs), claims a set id and the name in the set directory
// (nampi/detail/global/set_directory.hpp) and publishes the port under "nampi:<name>" with MPI's
// name service (MPI_Publish_name). Connecting: both sets call connect() with the other's
// name; the set whose name sorts first opens a port for this pair only, offers it (a file
// of the directory, and "nampi:<acceptor>/<connector>" with the name service) and accepts
// on it (MPI_Comm_accept); the other connects (MPI_Comm_connect). A port per pair, because
// an accept takes whichever connect arrives first: a third set connecting to the same
// port would be accepted in the second one's place. Neither side needs a thread that
// waits for connections. The name service serves where the other set's directory is not
// this one (`mpiexec -nameserver` with MPICH's hydra_nameserver). The roots then swap set
// ids and names over the new intercommunicator.
// MPICH needs MPIR_CVAR_CH4_NETMOD=ofi for ports (its UCX netmod fails MPI_Open_port with
// "no space for port_name tag"); without a port a set registers but cannot connect, and
// connect() says why.
//
// The destructor disconnects every intercommunicator (MPI_Comm_disconnect, in one order
// over all sets, so that jobs connected in a ring do not wait for each other), unpublishes
// the name, closes the port and removes the directory entry.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/global/ports.hpp"
#include "nampi/detail/global/rpc.hpp"
#include "nampi/detail/global/set_directory.hpp"
#include "nampi/detail/global/set_entry.hpp"
#include "nampi/detail/global/std_parts.hpp"
#include "nampi/detail/global/uid.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/plugins/global.hpp"
#include "nampi/mpi/info.hpp"
#include "nampi/plugin.hpp"
#include "nampi/session.hpp"

namespace nampi {

namespace detail::sets {

// What the root tells the other ranks after registering or finding a set: a status, a set
// id, and a text (a name, a port or an error message), in one MPI_Bcast of fixed size.
struct root_report {
  int ok = 0;
  int flag = 0;  // registration: 1 where the root opened a port
  std::uint32_t id = 0;
  char text[MPI_MAX_PORT_NAME + MPI_MAX_ERROR_STRING + 512] = {};

  void set_text(std::string_view s) {
    const std::size_t n = std::min(s.size(), sizeof text - 1);
    std::memcpy(text, s.data(), n);
    text[n] = '\0';
  }
  void bcast(MPI_Comm comm) {
    call_mpi("MPI_Bcast", MPI_Bcast, static_cast<void*>(this), static_cast<int>(sizeof *this),
             MPI_BYTE, 0, comm);
  }
};

// Calls that report a missing name as an error code (MPI_Lookup_name, MPI_Publish_name):
// MPI raises their errors on MPI_COMM_SELF (MPI 4; MPI_COMM_WORLD before), so both return
// errors while this lives, whatever handlers the program chose.
class errors_returned {
 public:
  errors_returned() {
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &self_);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  errors_returned(const errors_returned&) = delete;
  errors_returned& operator=(const errors_returned&) = delete;
  ~errors_returned() {
    MPI_Comm_set_errhandler(MPI_COMM_SELF, self_);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_);
    MPI_Errhandler_free(&self_);
    MPI_Errhandler_free(&world_);
  }

 private:
  MPI_Errhandler self_ = MPI_ERRHANDLER_NULL, world_ = MPI_ERRHANDLER_NULL;
};

// A new MPI port (MPI_Open_port); empty where MPI cannot open one, and `error` says why.
inline std::string open_port(std::string& error) {
  char port[MPI_MAX_PORT_NAME + 1] = {};
  const errors_returned quiet;
  const int code = mpi_open_port(port);
  if (code == MPI_SUCCESS) return port;
#if defined(NAMPI_HAVE_MPI_OPEN_PORT)
  error = mpi_error::error_string(code);
#else
  error = "this MPI does not provide MPI_Open_port";
#endif
  return {};
}

// The info of MPI_Comm_connect/_accept: MPICH bounds its connect attempts by "timeout" (s).
inline mpi::unique_info connect_info(std::chrono::milliseconds limit) {
  mpi::unique_info info = mpi::info_create();
  mpi::info_set(info, "timeout",
                std::to_string(std::max<long long>(1, limit.count() / 1000)).c_str());
  return info;
}

}  // namespace detail::sets

// A class template only so that its member functions are compiled in the units that call them:
// a unit that includes nampi/global.hpp without using a universe does not compile its 800
// lines of inline code and what they instantiate (issue 35: compile time).
template <typename = void>
class basic_universe {
 public:
  // Registers the processes of `comm` as one process set (collective over comm): set_name(x)
  // names it (else its id in decimal names it). Throws set_error (name taken or invalid,
  // directory unusable) at every rank alike.
  template <typename... Args>
  explicit basic_universe(const Communicator& comm, Args&&... args)
      : comm_(comm.dup()),
        rpc_comm_(detail::own_comm(detail::find_own_context(comm_.mpi_communicator()),
                                   "nampi::universe")),
        directory_(set_directory::standard()) {
    if constexpr (!generated::universe_check<std::remove_cvref_t<Args>...>::ok) {
      return;  // the check said why, in one message
    } else {
      std::string name;
      if constexpr (plugin::given<plugins::global_params::set_name, Args...>)
        name = std::string(plugin::value<plugins::global_params::set_name>(args...));
      register_set(std::move(name));
      add_builtin_procedures();
      start_progress_thread();
    }
  }

  basic_universe(const basic_universe&) = delete;
  basic_universe& operator=(const basic_universe&) = delete;
  ~basic_universe() { leave(); }

  // This process's id among all sets: set id << 32 | rank.
  nampi::uid uid() const noexcept { return nampi::uid(self_.id, comm_.rank()); }
  // The set's name, id and entry (as the directory has it).
  const std::string& name() const noexcept { return self_.name; }
  std::uint32_t id() const noexcept { return self_.id; }
  const set_info& info() const noexcept { return self_; }
  // The set's own communicator (a duplicate of the one it was made from).
  Communicator communicator() const { return comm_; }
  const set_directory& directory() const noexcept { return directory_; }
  // Whether this MPI could open a port (MPI_Open_port at registration), without which
  // connect() fails; at rank 0, where not, port_error() says MPI's reason.
  bool can_connect() const noexcept { return can_connect_; }
  const std::string& port_error() const noexcept { return port_error_; }

  // The process sets as MPI-4 sessions name them, next to MPI's own: MPI's (mpi://WORLD,
  // mpi://SELF, ...; where the MPI has sessions), then nampi://<name> for each live set of
  // the directory. connect() takes the nampi:// names as well as plain set names.
  std::vector<std::string> pset_names() {
    std::vector<std::string> names;
#if defined(NAMPI_HAVE_SESSIONS)
    const Session session;
    for (const auto& name : session.pset_names()) names.push_back(name);
#endif
    for (const set_info& s : directory_.list()) names.push_back(std::string(pset_prefix) + s.name);
    return names;
  }
  static constexpr std::string_view pset_prefix = "nampi://";

  // The live set of that name in the directory, if there is one.
  std::optional<set_info> directory_entry(std::string_view set) { return directory_.find(set); }

  // Every live set of the directory, this one included (entries of dead jobs are removed).
  std::vector<set_info> sets() { return directory_.list(); }

  // An intercommunicator to the set named `set` (its ranks are the remote group), owned by
  // this universe and cached: the first call is collective over this set and the other,
  // which calls connect() with this set's name; later calls return the cached one at once.
  // timeout(d) bounds the wait for the other set to register (omitted: 60 s).
  template <typename... Args>
  Communicator connect(std::string_view set, Args&&... args) {
    if constexpr (!generated::connect_check<std::remove_cvref_t<Args>...>::ok) {
      return detail::failed_call{};
    } else {
      std::chrono::milliseconds limit(60000);
      if constexpr (plugin::given<plugins::global_params::timeout, Args...>)
        limit = std::chrono::duration_cast<std::chrono::milliseconds>(
            plugin::value<plugins::global_params::timeout>(args...));
      if (set.starts_with(pset_prefix)) set.remove_prefix(pset_prefix.size());
      return connect_to(std::string(set), limit);
    }
  }

  // The id of rank `rank` of the set named `set` (a connected one, or one in the directory).
  nampi::uid uid_of(std::string_view set, int rank) {
    if (set == self_.name) return nampi::uid(self_.id, rank);
    if (const auto c = connections_.find(std::string(set)); c != connections_.end())
      return nampi::uid(c->second.id, rank);
    if (const auto s = directory_.find(set)) return nampi::uid(s->id, rank);
    throw set_error("nampi::universe::uid_of: no set named '" + std::string(set) + "'");
  }

  // "<set name>:<rank>" where the set is known here, else the uid's URI.
  std::string name_of(nampi::uid id) {
    const std::string rank = std::to_string(id.rank());
    if (id.set_id() == self_.id) return self_.name + ":" + rank;
    for (const auto& [name, c] : connections_)
      if (c.id == id.set_id()) return name + ":" + rank;
    if (const auto s = directory_.find(id.set_id())) return s->name + ":" + rank;
    return id.uri();
  }

  // Registers `procedure` under `name` at this process: a callable taking std::span<const T>
  // (T trivially copyable) or nothing, returning void, a trivially copyable value, a
  // std::vector of them or a std::string. Other processes call it with call(). Built in at
  // every process: "ping" (nothing), "set_info" (the set's directory entry, as text),
  // "connectivity" (one line per connected set: name, id, size).
  template <typename F>
  void on(std::string name, F procedure) {
    const std::lock_guard lock(mutex_);
    handlers_[std::move(name)] = detail::rpc::erase(std::move(procedure));
  }

  // Calls the procedure `name` at process `target` (of this set or a connected one; through
  // this set's root to a set only it is linked to) with `args` (a contiguous range of
  // trivially copyable values; may be omitted) and returns its result as R. A remote
  // exception (or no such procedure there) throws nampi::rpc_error; no reply within
  // timeout(d) (omitted: 10 s) throws nampi::rpc_timeout, never a hang. The target serves
  // calls in its progress thread (MPI_THREAD_MULTIPLE), else whenever it is in progress(),
  // call() or serve_for().
  template <typename R = void, typename... Args>
  R call(nampi::uid target, std::string_view name, Args&&... args) {
    if constexpr (first_is_arguments<Args...>()) {
      using Arguments = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Args...>>>;
      if constexpr (!detail::rpc::arguments_range<Arguments>) {
        static_assert(detail::rpc::arguments_range<Arguments>,
                      "nampi: call: the procedure's arguments (after its name) are one contiguous "
                      "range of trivially copyable values: give a single value as "
                      "std::vector{x} or std::span(&x, 1)");
        if constexpr (!std::is_void_v<R>) return detail::failed_call{};
      } else {
        return call_with<R>(target, name, std::forward<Args>(args)...);
      }
    } else {
      return call_with<R>(target, name, std::span<const std::byte>(), std::forward<Args>(args)...);
    }
  }

  // Serves the calls that arrived and forwards the messages that pass through; returns how
  // many messages it handled. A program without a progress thread calls it now and then.
  int progress() {
    const std::lock_guard lock(mutex_);
    return progress_once();
  }
  // Serves calls for `duration` (a process that only answers, e.g. in a test).
  template <typename Rep, typename Period>
  void serve_for(std::chrono::duration<Rep, Period> duration) {
    const auto end = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < end)
      if (progress() == 0) std::this_thread::yield();
  }
  // Whether calls are served in a thread of their own (MPI_THREAD_MULTIPLE was provided).
  bool has_progress_thread() const noexcept { return progress_thread_.joinable(); }

  // Disconnects from the set named `set` (collective over both sets, as connect was).
  void disconnect(std::string_view set) {
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Comm rpc = MPI_COMM_NULL;
    {
      const std::lock_guard lock(mutex_);
      const auto c = connections_.find(std::string(set));
      if (c == connections_.end()) return;
      inter = c->second.comm.release();
      rpc = std::exchange(c->second.rpc, MPI_COMM_NULL);
      connections_.erase(c);
    }
    detail::call_mpi("MPI_Comm_disconnect", MPI_Comm_disconnect, &rpc);
    detail::call_mpi("MPI_Comm_disconnect", MPI_Comm_disconnect, &inter);
  }

 private:
  // A connected set: the intercommunicator the program gets from connect(), and a duplicate
  // of it that only the RPCs use (so that no receive of the program on the intercommunicator,
  // wildcards included, takes an RPC message), disconnected with it.
  struct connection {
    OwnedCommunicator comm;
    MPI_Comm rpc = MPI_COMM_NULL;
    std::uint32_t id = 0;
  };

  OwnedCommunicator comm_;
  MPI_Comm rpc_comm_;  // comm_'s nampi context (own_context.hpp): the RPCs in this set
  set_directory directory_;
  set_info self_;
  std::string port_;        // the root's MPI port; empty where none
  std::string port_error_;  // why MPI_Open_port failed, where it did
  bool can_connect_ = false;
  std::map<std::string, connection> connections_;

  // RPC state, behind one lock (the progress thread and callers share it; recursive: a
  // procedure may call another process).
  struct pending_send {
    std::vector<std::byte> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::recursive_mutex mutex_;
  std::map<std::string, detail::rpc::erased_handler> handlers_;
  // The calls of this process still waiting, by request number, with the reply once it came.
  std::map<std::uint64_t, std::optional<detail::rpc::message>> calls_;
  std::uint64_t next_request_ = 0;
  std::vector<pending_send> sends_;
  std::thread progress_thread_;
  detail::atomic_cell<bool> stop_{false};

  // Links made on demand (link_on_demand): an intercommunicator between two single
  // processes, a caller and a set's root. Messages for any rank of that set go to the
  // root, which forwards them.
  struct link {
    MPI_Comm comm = MPI_COMM_NULL;
    nampi::uid peer;
  };
  std::vector<link> links_;
  std::chrono::steady_clock::time_point next_bell_check_;
  std::map<std::uint32_t, int> unanswered_;  // link requests in a row a set did not answer

  // Whether call()'s first argument after the name is the procedure's arguments (not a
  // named parameter such as timeout(d)).
  template <typename... Args>
  static constexpr bool first_is_arguments() {
    if constexpr (sizeof...(Args) == 0)
      return false;
    else
      return !detail::is_named_v<std::tuple_element_t<0, std::tuple<Args...>>>;
  }

  void register_set(std::string name) {
    detail::sets::root_report report;
    if (comm_.rank() == 0) {
      try {
        port_ = detail::sets::open_port(port_error_);
        set_info entry;
        entry.name = std::move(name);
        entry.size = comm_.size();
        entry.command = detail::sets::command_line();
        entry.host = detail::sets::host_name();
        entry.pid = ::getpid();
        entry.port = port_;
        entry.start = std::chrono::system_clock::now();
        self_ = directory_.claim(std::move(entry));
        publish();
        report.ok = 1;
        report.flag = port_.empty() ? 0 : 1;
        report.id = self_.id;
        report.set_text(self_.name);
      } catch (const std::exception& e) {
        close_port();
        report.set_text(e.what());
      }
    }
    report.bcast(comm_.mpi_communicator());
    if (!report.ok) throw set_error(report.text);
    can_connect_ = report.flag == 1;
    // Every rank gets the whole entry (built-in "set_info" answers with it).
    std::string text = comm_.rank() == 0 ? self_.to_text() : std::string();
    int length = static_cast<int>(text.size());
    detail::call_mpi("MPI_Bcast", MPI_Bcast, static_cast<void*>(&length), 1, MPI_INT, 0,
                     comm_.mpi_communicator());
    text.resize(static_cast<std::size_t>(length));
    detail::call_mpi("MPI_Bcast", MPI_Bcast, static_cast<void*>(text.data()), length, MPI_CHAR, 0,
                     comm_.mpi_communicator());
    if (comm_.rank() != 0) self_ = set_info::from_text(text).value();
  }

  // Unpublishes (an error where it was never published is ignored) and closes the port.
  void close_port() {
    if (port_.empty()) return;
    const detail::sets::errors_returned quiet;
    detail::sets::mpi_unpublish_name("nampi:" + self_.name, port_);
    detail::sets::mpi_close_port(port_);
    port_.clear();
  }
  // Under "nampi:<name>" where MPI's name service runs; nothing lost where it does not.
  void publish() {
    if (port_.empty()) return;
    const detail::sets::errors_returned quiet;
    detail::sets::mpi_publish_name("nampi:" + self_.name, port_);
  }
  // The port published under `service`, where the name service has it.
  static std::string look_up(const std::string& service) {
    char port[MPI_MAX_PORT_NAME + 1] = {};
    const detail::sets::errors_returned quiet;
    if (detail::sets::mpi_lookup_name(service, port) != MPI_SUCCESS) return {};
    return port;
  }

  Communicator connect_to(const std::string& set, std::chrono::milliseconds limit) {
    if (const auto c = connections_.find(set); c != connections_.end()) return c->second.comm;
    if (set == self_.name)
      throw set_error("nampi::universe::connect: '" + set + "' is this set itself");
    const bool accepts = self_.name < set;  // one side accepts, the other connects
    detail::sets::root_report report;
    std::string pair_port;  // the accepting root's port for this pair only
    if (comm_.rank() == 0) {
      if (accepts)
        offer_pair_port(set, limit, report, pair_port);
      else
        find_pair_port(set, limit, report);
    }
    report.bcast(comm_.mpi_communicator());
    if (!report.ok) throw set_error(report.text);

    MPI_Comm inter = MPI_COMM_NULL;
    const mpi::unique_info info = detail::sets::connect_info(limit);
    const MPI_Comm local = comm_.mpi_communicator();
    std::string port = accepts ? pair_port : std::string(report.text);
    int code = MPI_SUCCESS;
    {
      const detail::sets::errors_returned quiet;
      code = detail::sets::mpi_accept_or_connect(accepts, port, info.get(), local, &inter);
    }
    if (accepts && comm_.rank() == 0) withdraw_pair_port(set, pair_port);
    detail::check_mpi_code(accepts ? "MPI_Comm_accept" : "MPI_Comm_connect", code);
    OwnedCommunicator owned(inter);

    // The roots swap set ids (the name service gives no id) and names, to check both agree.
    detail::sets::root_report mine, theirs;
    mine.ok = 1;
    mine.id = self_.id;
    mine.set_text(self_.name);
    if (comm_.rank() == 0)
      detail::call_mpi("MPI_Sendrecv", MPI_Sendrecv, static_cast<const void*>(&mine),
                       static_cast<int>(sizeof mine), MPI_BYTE, 0, 0, static_cast<void*>(&theirs),
                       static_cast<int>(sizeof theirs), MPI_BYTE, 0, 0, inter, MPI_STATUS_IGNORE);
    theirs.bcast(local);
    if (set != theirs.text)
      throw set_error("nampi::universe::connect: asked for set '" + set + "', got '" +
                      std::string(theirs.text) + "'");
    MPI_Comm rpc = MPI_COMM_NULL;
    detail::call_mpi("MPI_Comm_dup", MPI_Comm_dup, inter, &rpc);
    MPI_Comm_set_errhandler(rpc, MPI_ERRORS_RETURN);  // RPC sends report
    const std::lock_guard lock(mutex_);
    connection& c = connections_[set];
    c.comm = std::move(owned);
    c.rpc = rpc;
    c.id = theirs.id;
    return c.comm;
  }

  // A port per pair of sets: a set accepts on a port that only the one set it expects knows,
  // so that connections of other sets (arriving at any time) never meet this accept.
  // Offered as a file `.pair.<acceptor>.<connector>` of the directory (hidden from
  // listings) and as "nampi:<acceptor>/<connector>" with the name service.
  std::string pair_file(const std::string& acceptor, const std::string& connector) const {
    return directory_.path() + "/.pair." + acceptor + "." + connector;
  }
  static std::string pair_service(const std::string& acceptor, const std::string& connector) {
    return "nampi:" + acceptor + "/" + connector;
  }

  // The accepting root: waits until `set` is registered (so that a set that never comes
  // ends in set_error, not in an accept that waits forever), opens the pair's port and
  // offers it.
  void offer_pair_port(const std::string& set, std::chrono::milliseconds limit,
                       detail::sets::root_report& report, std::string& pair_port) {
    if (port_.empty()) {
      report.set_text("nampi::universe::connect: set '" + self_.name +
                      "' cannot open MPI ports (MPI_Open_port: " + port_error_ +
                      "; with MPICH, set MPIR_CVAR_CH4_NETMOD=ofi)");
      write_pair_file(set, std::string("!") + report.text);  // the other side fails at once
      return;
    }
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!directory_.find(set) && look_up("nampi:" + set).empty()) {
      if (std::chrono::steady_clock::now() >= deadline) {
        report.set_text(not_registered(set, limit));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::string error;
    pair_port = detail::sets::open_port(error);
    if (pair_port.empty()) {
      report.set_text("nampi::universe::connect: MPI_Open_port: " + error);
      return;
    }
    {
      const detail::sets::errors_returned quiet;
      detail::sets::mpi_publish_name(pair_service(self_.name, set), pair_port);
    }
    write_pair_file(set, pair_port);
    report.ok = 1;
  }
  // `<set id>\n<port>\n`, or `<set id>\n!<why there is none>\n`; written whole (rename).
  void write_pair_file(const std::string& set, const std::string& port) {
    std::string line = port;
    std::replace(line.begin(), line.end(), '\n', ' ');  // an error message may span lines
    detail::sets::write_whole(pair_file(self_.name, set),
                              std::to_string(self_.id) + "\n" + line + "\n");
  }
  void withdraw_pair_port(const std::string& set, std::string& pair_port) {
    std::remove(pair_file(self_.name, set).c_str());
    const detail::sets::errors_returned quiet;
    detail::sets::mpi_unpublish_name(pair_service(self_.name, set), pair_port);
    detail::sets::mpi_close_port(pair_port);
  }

  // The connecting root: waits until `set` offers this set its pair's port (a file of the
  // directory that the registered `set` wrote, else the name service), puts it in `report`.
  void find_pair_port(const std::string& set, std::chrono::milliseconds limit,
                      detail::sets::root_report& report) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      std::string port;
      if (const auto s = directory_.find(set)) {
        // Only the file of the set registered now, not one a dead job left behind.
        const std::string text = detail::sets::read_file(pair_file(set, self_.name)).value_or("");
        const auto newline = text.find('\n');
        if (newline != std::string::npos && text.substr(0, newline) == std::to_string(s->id) &&
            text.back() == '\n')
          port = text.substr(newline + 1, text.size() - newline - 2);
      } else {
        port = look_up(pair_service(set, self_.name));
      }
      if (!port.empty() && port.front() == '!') {  // it cannot accept, and said why
        std::remove(pair_file(set, self_.name).c_str());
        report.set_text(port.substr(1));
        return;
      }
      if (!port.empty()) {
        report.ok = 1;
        report.set_text(port);
        return;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        report.set_text(not_registered(set, limit));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  std::string not_registered(const std::string& set, std::chrono::milliseconds limit) const {
    return "nampi::universe::connect: set '" + set + "' did not register and call connect(\"" +
           self_.name + "\") within " + std::to_string(limit.count()) + " ms (directory " +
           directory_.path() + ", and not with MPI's name service)";
  }

  // --- RPC
  template <typename R, typename Range, typename... Args>
  R call_with(nampi::uid target, std::string_view name, const Range& args, Args&&... params) {
    if constexpr (!generated::rpc_call_check<std::remove_cvref_t<Args>...>::ok) {
      return detail::failed_call{};
    } else {
      static_assert(detail::rpc::valid_result<R>,
                    "nampi: universe::call<R>: R is void, a trivially copyable value, a "
                    "std::vector of them, or a std::string");
      std::chrono::milliseconds limit(10000);
      if constexpr (plugin::given<plugins::global_params::timeout, Args...>)
        limit = std::chrono::duration_cast<std::chrono::milliseconds>(
            plugin::value<plugins::global_params::timeout>(params...));
      const std::string what = "call '" + std::string(name) + "' to " + name_of(target);
      detail::rpc::message m;
      m.name = name;
      m.payload = detail::rpc::to_bytes(args);
      m.head.origin = uid().value();
      m.head.target = target.value();
      m.head.ttl = detail::rpc::initial_ttl;
      m.head.what = detail::rpc::kind::request;
      std::string send_failure;
      if (!reachable(target) && directory_.find(target.set_id()) &&
          !link_on_demand(target.set_id(), limit))
        throw rpc_timeout("nampi: " + what +
                          ": its set's root did not answer a link request within " +
                          std::to_string(limit.count()) + " ms");
      {
        const std::lock_guard lock(mutex_);
        m.head.request = ++next_request_;
        calls_[m.head.request];
        if (!route(m, send_failure) && send_failure.empty()) {
          calls_.erase(m.head.request);
          throw rpc_error("nampi: " + what + ": no route (not this set, nor a connected one)");
        }
      }
      const auto deadline = std::chrono::steady_clock::now() + limit;
      int idle = 0;
      for (;;) {
        {
          const std::lock_guard lock(mutex_);
          if (progress_once() > 0) idle = 0;
          const auto call = calls_.find(m.head.request);
          if (call->second) {
            const detail::rpc::message reply = std::move(*call->second);
            calls_.erase(call);
            return take_reply<R>(reply, what);
          }
          if (std::chrono::steady_clock::now() >= deadline) {
            calls_.erase(call);
            throw rpc_timeout(
                "nampi: " + what + ": no reply within " + std::to_string(limit.count()) + " ms" +
                (send_failure.empty() ? "" : " (sending failed: " + send_failure + ")"));
          }
        }
        if (++idle > 64)
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        else
          std::this_thread::yield();
      }
    }
  }

  template <typename R>
  static R take_reply(const detail::rpc::message& reply, const std::string& what) {
    const std::string text(reinterpret_cast<const char*>(reply.payload.data()),
                           reply.payload.size());
    switch (reply.head.what) {
      case detail::rpc::kind::reply:
        return detail::rpc::result_from_bytes<R>(reply.payload, what);
      case detail::rpc::kind::remote_error:
        throw rpc_error("nampi: " + what + " failed there: " + text);
      default:
        throw rpc_error("nampi: " + what + ": undeliverable: " + text);
    }
  }

  // Sends `m` one hop towards its target: directly in this set or to a connected set, else
  // (not the root) to this set's root. False where there is no route; `failure` says why a
  // send failed (MPI's message), where one did.
  bool route(const detail::rpc::message& m, std::string& failure) {
    const nampi::uid target(m.head.target);
    auto [via, rank] = direct_way(target);
    if (via == MPI_COMM_NULL && comm_.rank() != 0) {
      via = rpc_comm_;  // the root may be linked to it
      rank = 0;
    }
    if (via == MPI_COMM_NULL) return false;
    int size = 0;
    int inter = 0;
    MPI_Comm_test_inter(via, &inter);
    if (inter)
      MPI_Comm_remote_size(via, &size);
    else
      MPI_Comm_size(via, &size);
    if (rank < 0 || rank >= size) return false;
    pending_send s;
    s.bytes = m.encode();
    const int code = MPI_Isend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, rank,
                               detail::rpc::message_tag, via, &s.request);
    if (code != MPI_SUCCESS) {
      failure = mpi_error::error_string(code);
      return false;
    }
    sends_.push_back(std::move(s));
    return true;
  }

  // One round: completes sends, receives what arrived on every communicator of this
  // universe and handles it. Holds the lock (the caller took it).
  int progress_once() {
    answer_link_request();
    std::erase_if(sends_, [](pending_send& s) {
      int done = 0;
      if (MPI_Test(&s.request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return true;  // failed
      return done != 0;
    });
    std::vector<MPI_Comm> comms{rpc_comm_};
    for (const auto& [name, c] : connections_) comms.push_back(c.rpc);
    for (const link& l : links_) comms.push_back(l.comm);
    int handled = 0;
    for (const MPI_Comm comm : comms) {
      for (;;) {
        int flag = 0;
        MPI_Message probed = MPI_MESSAGE_NULL;
        MPI_Status status;
        if (MPI_Improbe(MPI_ANY_SOURCE, detail::rpc::message_tag, comm, &flag, &probed, &status) !=
                MPI_SUCCESS ||
            !flag)
          break;
        int count = 0;
        MPI_Get_count(&status, MPI_BYTE, &count);
        std::vector<std::byte> bytes(static_cast<std::size_t>(count));
        if (MPI_Mrecv(bytes.data(), count, MPI_BYTE, &probed, MPI_STATUS_IGNORE) != MPI_SUCCESS)
          break;
        detail::rpc::message m;
        if (m.decode(bytes)) handle(std::move(m));
        ++handled;
      }
    }
    return handled;
  }

  void handle(detail::rpc::message m) {
    using detail::rpc::kind;
    std::string failure;
    if (m.head.target != uid().value()) {  // passing through
      if (--m.head.ttl > 0 && route(m, failure)) return;
      if (m.head.what == kind::request)
        answer(m, kind::undeliverable,
               "no route from " + name_of(uid()) + (failure.empty() ? "" : ": " + failure));
      return;
    }
    if (m.head.what != kind::request) {
      if (const auto call = calls_.find(m.head.request); call != calls_.end())
        call->second = std::move(m);
      return;  // else: the caller gave up on it
    }
    const auto h = handlers_.find(m.name);
    if (h == handlers_.end()) {
      answer(m, kind::remote_error, "no procedure '" + m.name + "' at " + name_of(uid()));
      return;
    }
    try {
      const std::vector<std::byte> result = h->second(m.payload);
      answer(m, kind::reply, result);
    } catch (const std::exception& e) {
      answer(m, kind::remote_error, e.what());
    } catch (...) {
      answer(m, kind::remote_error, "an exception that is no std::exception");
    }
  }
  void answer(const detail::rpc::message& request, detail::rpc::kind what, std::string_view text) {
    const auto* p = reinterpret_cast<const std::byte*>(text.data());
    answer(request, what, std::vector<std::byte>(p, p + text.size()));
  }
  void answer(const detail::rpc::message& request, detail::rpc::kind what,
              std::vector<std::byte> payload) {
    detail::rpc::message reply;
    reply.head.origin = uid().value();
    reply.head.target = request.head.origin;
    reply.head.request = request.head.request;
    reply.head.ttl = detail::rpc::initial_ttl;
    reply.head.what = what;
    reply.name = request.name;
    reply.payload = std::move(payload);
    std::string failure;
    route(reply, failure);  // where it cannot go back, the caller times out
  }

  void add_builtin_procedures() {
    on("ping", [] {});
    on("set_info", [this] { return self_.to_text(); });
    on("connectivity", [this] {
      std::string text;
      for (const auto& [name, c] : connections_) {
        int size = 0;
        MPI_Comm_remote_size(c.comm.mpi_communicator(), &size);
        text += name + " " + std::to_string(c.id) + " " + std::to_string(size) + "\n";
      }
      return text;
    });
  }

  // The communicator and rank a message to `target` goes to directly: this set's, a
  // connected set's, or a link to the target's set (to its other end: the process itself, or
  // its set's root, which forwards); MPI_COMM_NULL where there is none.
  std::pair<MPI_Comm, int> direct_way(nampi::uid target) const {
    if (target.set_id() == self_.id) return {rpc_comm_, target.rank()};
    for (const auto& [name, c] : connections_)
      if (c.id == target.set_id()) return {c.rpc, target.rank()};
    for (const link& l : links_)
      if (l.peer.set_id() == target.set_id()) return {l.comm, 0};
    return {MPI_COMM_NULL, 0};
  }
  // Whether a message to `target` has a way without a new link.
  bool reachable(nampi::uid target) {
    const std::lock_guard lock(mutex_);
    return direct_way(target).first != MPI_COMM_NULL;
  }

  // Links this process to the root of set `id`: the paper's on-demand connection. MPI has
  // no nonblocking accept, and MPICH holds its global lock while MPI_Comm_accept waits, so
  // a root cannot wait for links in a thread; it accepts only when asked. The caller rings
  // (creates `.link.<set name>` in the directory, holding its uid; one caller at a time),
  // the root's progress notices it, opens a port, answers with `.linkport.<set name>.<uid>`
  // and accepts; the caller connects. False where the set is unknown or did not answer
  // within `limit`.
  bool link_on_demand(std::uint32_t id, std::chrono::milliseconds limit) {
    const auto s = directory_.find(id);
    if (!s || !can_connect_) return false;
    if (link_once(*s, limit)) {
      unanswered_.erase(id);
      return true;
    }
    // A set on another host cannot be checked by its pid: after three link requests in a row
    // that it did not answer, its entry counts as dead, and the one who found out removes it.
    if (s->host != detail::sets::host_name() && ++unanswered_[id] >= 3) {
      directory_.release(*s);
      unanswered_.erase(id);
    }
    return false;
  }
  bool link_once(const set_info& target, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    const std::string bell = directory_.path() + "/.link." + target.name;
    const std::string answer =
        directory_.path() + "/.linkport." + target.name + "." + std::to_string(uid().value());
    const std::string me = std::to_string(uid().value()) + "\n";
    // Ring: the bell appears whole (link(2) of a file written first), one caller at a time.
    const std::string draft = bell + "." + std::to_string(uid().value()) + ".tmp";
    detail::sets::write_whole(draft, me);
    for (;;) {
      if (::link(draft.c_str(), bell.c_str()) == 0) break;
      if (errno != EEXIST || std::chrono::steady_clock::now() >= deadline) {
        ::unlink(draft.c_str());
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ::unlink(draft.c_str());
    std::string port;
    for (;;) {  // the root answers with a port
      const std::string text = detail::sets::read_file(answer).value_or("");
      if (!text.empty() && text.back() == '\n') {
        port = text.substr(0, text.size() - 1);
        ::unlink(answer.c_str());
        break;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        // Not taken by the root yet: withdraw (the root takes a bell by renaming it, so an
        // unlink that succeeds means it never saw this one).
        if (detail::sets::read_file(bell).value_or("") == me && ::unlink(bell.c_str()) == 0)
          return false;
        // Taken: the root is about to accept and would wait for this caller forever; connect
        // anyway, unless the root is gone or never answers.
        if (!directory_.find(target.id) || now >= deadline + std::chrono::seconds(10)) return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    const mpi::unique_info info = detail::sets::connect_info(limit);
    MPI_Comm inter = MPI_COMM_NULL;
    const detail::sets::errors_returned quiet;
    if (detail::sets::mpi_accept_or_connect(false, port, info.get(), MPI_COMM_SELF, &inter) !=
        MPI_SUCCESS)
      return false;
    return add_link(inter);
  }

  // The root, in its progress (at most every 5 ms): accepts the link a caller asked for.
  void answer_link_request() {
    if (comm_.rank() != 0 || !can_connect_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_bell_check_) return;
    next_bell_check_ = now + std::chrono::milliseconds(5);
    // Taken by renaming, so that a caller that gives up knows whether it was seen; the bell
    // is free for the next caller at once.
    const std::string bell = directory_.path() + "/.link." + self_.name;
    const std::string taken = bell + ".taken";
    if (::rename(bell.c_str(), taken.c_str()) != 0) return;
    const std::string text = detail::sets::read_file(taken).value_or("");
    ::unlink(taken.c_str());
    if (text.empty() || text.back() != '\n') return;
    const std::string caller = text.substr(0, text.size() - 1);
    std::string error;
    std::string port = detail::sets::open_port(error);
    if (port.empty()) return;  // the caller times out
    detail::sets::write_whole(directory_.path() + "/.linkport." + self_.name + "." + caller,
                              port + "\n");
    MPI_Comm inter = MPI_COMM_NULL;
    const detail::sets::errors_returned quiet;
    const int code =
        detail::sets::mpi_accept_or_connect(true, port, MPI_INFO_NULL, MPI_COMM_SELF, &inter);
    detail::sets::mpi_close_port(port);
    if (code == MPI_SUCCESS) add_link(inter);
  }

  // The two ends swap uids; the link is kept (it ends with the universe).
  bool add_link(MPI_Comm inter) {
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    std::uint64_t mine = uid().value(), theirs = 0;
    if (MPI_Sendrecv(&mine, 1, MPI_UINT64_T, 0, 0, &theirs, 1, MPI_UINT64_T, 0, 0, inter,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
      MPI_Comm_free(&inter);
      return false;
    }
    const std::lock_guard lock(mutex_);
    links_.push_back({inter, nampi::uid(theirs)});
    return true;
  }

  // Links end with the universe: freed, not disconnected (a disconnect would wait for the
  // other process to end its side too).
  void free_links() noexcept {
    for (link& l : links_) MPI_Comm_free(&l.comm);
    links_.clear();
  }

  void start_progress_thread() {
    MPI_Comm_set_errhandler(rpc_comm_, MPI_ERRORS_RETURN);  // RPC sends report
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE) return;  // calls are served in progress() and call()
    progress_thread_ = std::thread([this] {
      int idle = 0;
      while (!stop_.load()) {
        int handled = 0;
        {
          const std::lock_guard lock(mutex_);
          handled = progress_once();
        }
        idle = handled ? 0 : idle + 1;
        if (idle > 256)
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        else
          std::this_thread::yield();
      }
    });
  }
  void stop_progress_thread() noexcept {
    stop_.store(true);
    if (progress_thread_.joinable()) progress_thread_.join();
    // Sends still in flight (to a process that is gone): cancel them.
    for (pending_send& s : sends_) {
      int done = 0;
      if (MPI_Test(&s.request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
        MPI_Cancel(&s.request);
        MPI_Request_free(&s.request);
      }
    }
    sends_.clear();
  }

  // Disconnects, unpublishes, closes the port and removes the entry; never throws.
  void leave() noexcept {
    stop_progress_thread();
    if (mpi::detail::mpi_finalized()) {
      links_.clear();
      for (auto& [name, c] : connections_) c.comm.release();  // died with MPI (rpc too)
      if (comm_.rank() == 0 && self_.id != 0) try_release();
      return;
    }
    // One order over all sets: by the pair of names, the smaller first.
    std::vector<std::string> order;
    for (const auto& [name, c] : connections_) order.push_back(name);
    std::sort(order.begin(), order.end(), [this](const std::string& a, const std::string& b) {
      return std::minmax(a, self_.name) < std::minmax(b, self_.name);
    });
    // A set that is gone cannot take part in a disconnect: its handle is only freed. The
    // root decides for all ranks (they must all disconnect, or all not).
    std::vector<char> gone(order.size(), 0);
    if (comm_.rank() == 0)
      for (std::size_t i = 0; i < order.size(); ++i) {
        try {
          gone[i] = !directory_.find(connections_[order[i]].id);
        } catch (...) {
        }
      }
    if (!gone.empty())
      MPI_Bcast(gone.data(), static_cast<int>(gone.size()), MPI_CHAR, 0, comm_.mpi_communicator());
    for (std::size_t i = 0; i < order.size(); ++i) {
      connection& c = connections_[order[i]];
      for (MPI_Comm inter : {c.rpc, c.comm.release()}) {
        if (gone[i])
          MPI_Comm_free(&inter);
        else
          MPI_Comm_disconnect(&inter);
      }
    }
    connections_.clear();
    free_links();
    if (comm_.rank() == 0) {
      close_port();
      if (self_.id != 0) try_release();
    }
  }
  void try_release() noexcept {
    try {
      directory_.release(self_);
    } catch (...) {
    }
  }
};

using universe = basic_universe<>;

}  // namespace nampi
