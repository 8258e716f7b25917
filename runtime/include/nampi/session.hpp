// nampi::Session: an MPI-4 session (MPI_Session_init ... MPI_Session_finalize),
// the way to MPI without MPI_COMM_WORLD: the process sets it offers by name
// ("mpi://WORLD", "mpi://SELF", ...), what MPI tells about each, a group from
// one and a communicator from a group. Defined where the MPI has sessions
// (NAMPI_HAVE_SESSIONS; Open MPI 4.1 and MPICH 4.0 lack some of these calls).
//
// Communicators made here belong to the session: destroy them before it.
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/detail/configuration.hpp"
#include "nampi/detail/deferred.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/group.hpp"
#include "nampi/mpi/communicators.hpp"
#include "nampi/mpi/info.hpp"
#include "nampi/mpi/process.hpp"

#if defined(NAMPI_HAVE_MPI_SESSION_INIT) && defined(NAMPI_HAVE_MPI_SESSION_FINALIZE) && \
    defined(NAMPI_HAVE_MPI_SESSION_GET_NUM_PSETS) &&                                    \
    defined(NAMPI_HAVE_MPI_SESSION_GET_NTH_PSET) &&                                     \
    defined(NAMPI_HAVE_MPI_SESSION_GET_PSET_INFO) &&                                    \
    defined(NAMPI_HAVE_MPI_GROUP_FROM_SESSION_PSET) &&                                  \
    defined(NAMPI_HAVE_MPI_COMM_CREATE_FROM_GROUP) && defined(NAMPI_HAVE_MPI_INFO_GET_STRING)
#define NAMPI_HAVE_SESSIONS 1

namespace nampi {
namespace detail {

// An owner of the typed layer's session handle; each member is the typed
// layer's function of the same MPI call (nampi/mpi/process.hpp). A template
// with one instance (Session below) so that a unit that includes nampi but
// opens no session compiles none of it (deferred.hpp).
template <typename Unused = void>
class basic_session {
  using text = deferred_t<std::string, Unused>;

 public:
  // MPI_Session_init, with errors returned (and thrown as nampi::mpi_error).
  basic_session() : owner_(mpi::session_init(mpi::info(), mpi::errhandler(MPI_ERRORS_RETURN))) {}

  // The MPI session, for C libraries and MPI calls of your own (the session still owns it).
  MPI_Session mpi_handle() const noexcept { return owner_.get(); }
  MPI_Session mpi_session() const noexcept { return owner_.get(); }  // the same, older name

  // The names of the process sets this session offers, in MPI's order.
  std::vector<text> pset_names() const {
    const int n = mpi::session_get_num_psets(owner_, mpi::info());
    std::vector<text> names;
    names.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      names.push_back(fetched([&](int& length, char* name) {
        mpi::session_get_nth_pset(owner_, mpi::info(), i, length, name);
      }));
    return names;
  }

  // What MPI tells about a process set (key, value), e.g. ("mpi_size", "4").
  std::vector<std::pair<text, text>> pset_info(const text& pset) const {
    const mpi::unique_info info = mpi::session_get_pset_info(owner_, pset.c_str());
    const int n = mpi::info_get_nkeys(info);
    std::vector<std::pair<text, text>> entries;
    for (int i = 0; i < n; ++i) {
      char key[MPI_MAX_INFO_KEY + 1] = {};
      mpi::info_get_nthkey(info, i, key);
      entries.emplace_back(text(key), fetched([&](int& length, char* value) {
                             mpi::info_get_string(info, key, length, value);
                           }));
    }
    return entries;
  }

  // The group of a process set (MPI_Group_from_session_pset).
  nampi::group group_of(const text& pset) const {
    return nampi::group(mpi::group_from_session_pset(owner_, pset.c_str()));
  }

  // A communicator of the group's processes, all of which call this with the
  // same string tag (MPI_Comm_create_from_group; errors returned and thrown).
  OwnedCommunicator communicator_of(const nampi::group& g, const text& tag) const {
    OwnedCommunicator out;
    out.adopt_created(mpi::comm_create_from_group(mpi::group(g.get()), tag.c_str(), mpi::info(),
                                          mpi::errhandler(MPI_ERRORS_RETURN))
                  .release()
                  .get());
    return out;
  }

 private:
  // A string MPI writes with `fill(length, buffer)`: its length (with the
  // terminating null) asked first, with a one-byte buffer, since MPICH 4.0
  // refuses a null one even of length 0; then the string itself.
  template <typename Fill>
  static text fetched(Fill fill) {
    char probe[1] = {};
    int length = 0;
    fill(length, probe);
    text out(static_cast<std::size_t>(length), '\0');
    fill(length, out.data());
    out.resize(std::min(out.find('\0'), out.size()));
    return out;
  }

  mpi::unique_session owner_;
};

}  // namespace detail

using Session = detail::basic_session<>;

}  // namespace nampi

#endif
