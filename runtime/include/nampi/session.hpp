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
#include "nampi/config.h"
#include "nampi/deferred.hpp"
#include "nampi/error.hpp"
#include "nampi/group.hpp"
#include "nampi/mpi/handles.hpp"

#if defined(NAMPI_HAVE_MPI_SESSION_INIT) && defined(NAMPI_HAVE_MPI_SESSION_FINALIZE) && \
    defined(NAMPI_HAVE_MPI_SESSION_GET_NUM_PSETS) &&                                    \
    defined(NAMPI_HAVE_MPI_SESSION_GET_NTH_PSET) &&                                     \
    defined(NAMPI_HAVE_MPI_SESSION_GET_PSET_INFO) &&                                    \
    defined(NAMPI_HAVE_MPI_GROUP_FROM_SESSION_PSET) &&                                  \
    defined(NAMPI_HAVE_MPI_COMM_CREATE_FROM_GROUP) && defined(NAMPI_HAVE_MPI_INFO_GET_STRING)
#define NAMPI_HAVE_SESSIONS 1

namespace nampi {
namespace detail {

// A template with one instance (Session below) so that a unit that includes
// nampi but opens no session compiles none of it (deferred.hpp).
template <typename Unused = void>
class basic_session {
  using text = deferred_t<std::string, Unused>;

 public:
  // MPI_Session_init, with errors returned (and thrown as nampi::mpi_error).
  basic_session() {
    MPI_Session s = MPI_SESSION_NULL;
    detail::call_mpi("MPI_Session_init", MPI_Session_init, MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    owner_ = mpi::unique_session(mpi::detail::adopt_new, mpi::session(s));
  }
  basic_session(const basic_session&) = delete;
  basic_session& operator=(const basic_session&) = delete;
  basic_session(basic_session&&) noexcept = default;
  basic_session& operator=(basic_session&&) noexcept = default;
  ~basic_session() = default;  // owner_ calls MPI_Session_finalize

  MPI_Session mpi_session() const noexcept { return owner_.get(); }

  // The names of the process sets this session offers, in MPI's order.
  std::vector<text> pset_names() const {
    int n = 0;
    detail::call_mpi("MPI_Session_get_num_psets", MPI_Session_get_num_psets, owner_.get(),
                     MPI_INFO_NULL, &n);
    std::vector<text> names;
    names.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      char probe[1] = {};  // the length (with its terminating null) first, as below
      int length = 0;
      detail::call_mpi("MPI_Session_get_nth_pset", MPI_Session_get_nth_pset, owner_.get(),
                       MPI_INFO_NULL, i, &length, probe);
      text name(static_cast<std::size_t>(length), '\0');
      detail::call_mpi("MPI_Session_get_nth_pset", MPI_Session_get_nth_pset, owner_.get(),
                       MPI_INFO_NULL, i, &length, name.data());
      name.resize(name.find('\0') == text::npos ? name.size() : name.find('\0'));
      names.push_back(std::move(name));
    }
    return names;
  }

  // What MPI tells about a process set (key, value), e.g. ("mpi_size", "4").
  std::vector<std::pair<text, text>> pset_info(const text& pset) const {
    MPI_Info info = MPI_INFO_NULL;
    detail::call_mpi("MPI_Session_get_pset_info", MPI_Session_get_pset_info, owner_.get(),
                     pset.c_str(), &info);
    const mpi::unique_info owned{mpi::info(info)};
    int n = 0;
    detail::call_mpi("MPI_Info_get_nkeys", MPI_Info_get_nkeys, info, &n);
    std::vector<std::pair<text, text>> entries;
    for (int i = 0; i < n; ++i) {
      char key[MPI_MAX_INFO_KEY + 1] = {};
      detail::call_mpi("MPI_Info_get_nthkey", MPI_Info_get_nthkey, info, i, key);
      // The value's length (with its terminating null) is asked first, with a
      // buffer of one byte: MPICH 4.0 refuses a null buffer even of length 0.
      char probe[1] = {};
      int length = 0, flag = 0;
      detail::call_mpi("MPI_Info_get_string", MPI_Info_get_string, info, key, &length, probe,
                       &flag);
      text value(static_cast<std::size_t>(length), '\0');
      detail::call_mpi("MPI_Info_get_string", MPI_Info_get_string, info, key, &length, value.data(),
                       &flag);
      value.resize(value.find('\0') == text::npos ? value.size() : value.find('\0'));
      entries.emplace_back(text(key), std::move(value));
    }
    return entries;
  }

  // The group of a process set (MPI_Group_from_session_pset).
  nampi::group group_of(const text& pset) const {
    MPI_Group g = MPI_GROUP_NULL;
    detail::call_mpi("MPI_Group_from_session_pset", MPI_Group_from_session_pset, owner_.get(),
                     pset.c_str(), &g);
    return nampi::group(g);
  }

  // A communicator of the group's processes, all of which call this with the
  // same string tag (MPI_Comm_create_from_group; errors returned and thrown).
  OwnedCommunicator communicator_of(const nampi::group& g, const text& tag) const {
    MPI_Comm comm = MPI_COMM_NULL;
    detail::call_mpi("MPI_Comm_create_from_group", MPI_Comm_create_from_group, g.get(), tag.c_str(),
                     MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    OwnedCommunicator out;
    out.adopt(comm);
    return out;
  }

 private:
  mpi::unique_session owner_;
};

}  // namespace detail

using Session = detail::basic_session<>;

}  // namespace nampi

#endif
