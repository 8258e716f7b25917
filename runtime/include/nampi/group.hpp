// nampi::group: an MPI group (MPI_Group), owned and freed by its destructor,
// with MPI's group operations as members. Groups are local: no operation here
// communicates. A communicator's group is `comm.group()` (an intercommunicator's
// other side: `comm.remote_group()`); `comm.create(group(g))`
// and `comm.create_group(group(g), tag(t))` make a communicator of one.
#pragma once

#include <mpi.h>

#include <array>
#include <utility>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/detail/deferred.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/mpi/communicators.hpp"

namespace nampi {

namespace detail {

// An owner of the typed layer's group handle: each operation is the typed
// layer's function of the same MPI call (nampi/mpi/communicators.hpp), whose
// result it owns in turn. A template with one instance (nampi::group) so that
// a unit that uses no group compiles none of those calls.
template <typename Unused>
class basic_group {
  using group = basic_group;

 public:
  // As a C handle for MPI calls (the named calls' `group(g)` passes it so).
  using c_type = MPI_Group;

  // MPI_GROUP_NULL.
  basic_group() noexcept = default;
  // Takes ownership of `g` (a predefined group such as MPI_GROUP_EMPTY is kept, never freed).
  explicit basic_group(MPI_Group g) noexcept : owner_(mpi::group(g)) {}
  explicit basic_group(mpi::unique_group owner) noexcept : owner_(std::move(owner)) {}

  basic_group(basic_group&&) noexcept = default;
  basic_group& operator=(basic_group&&) noexcept = default;
  basic_group(const basic_group&) = delete;
  basic_group& operator=(const basic_group&) = delete;

  // The group of a communicator (MPI_Comm_group).
  static group of(const Communicator& comm) {
    return group(mpi::comm_group(mpi::comm(comm.mpi_communicator())));
  }

  // The MPI group, for C libraries and MPI calls of your own (the group still owns it);
  // get() and mpi_group() are older names of it.
  MPI_Group mpi_handle() const noexcept { return owner_.get(); }
  MPI_Group get() const noexcept { return owner_.get(); }
  MPI_Group mpi_group() const noexcept { return owner_.get(); }
  bool is_null() const noexcept { return owner_.is_null(); }

  int size() const { return mpi::group_size(owner_); }
  // This process's rank in the group; MPI_UNDEFINED if it is not a member.
  int rank() const { return mpi::group_rank(owner_); }

  // The members at `ranks`, in that order (MPI_Group_incl).
  group incl(const std::vector<int>& ranks) const { return group(mpi::group_incl(owner_, ranks)); }
  // The members not at `ranks`, in their order here (MPI_Group_excl).
  group excl(const std::vector<int>& ranks) const { return group(mpi::group_excl(owner_, ranks)); }
  // The members at the ranks of (first, last, stride) triplets (MPI_Group_range_incl).
  group range_incl(const std::vector<std::array<int, 3>>& ranges) const {
    return group(mpi::group_range_incl(owner_, ranges));
  }
  // The members not at those ranks (MPI_Group_range_excl).
  group range_excl(const std::vector<std::array<int, 3>>& ranges) const {
    return group(mpi::group_range_excl(owner_, ranges));
  }

  // Set operations, ordered as MPI orders them: this group's members first.
  // (`union` is a C++ keyword, hence union_with.)
  group union_with(const group& other) const {
    return group(mpi::group_union(owner_, other.owner_));
  }
  group intersection(const group& other) const {
    return group(mpi::group_intersection(owner_, other.owner_));
  }
  group difference(const group& other) const {
    return group(mpi::group_difference(owner_, other.owner_));
  }

  // The ranks in `other` of the members at `ranks` here (MPI_UNDEFINED where
  // one is not in `other`; MPI_PROC_NULL stays MPI_PROC_NULL).
  std::vector<int> translate_ranks(const std::vector<int>& ranks, const group& other) const {
    return mpi::group_translate_ranks(owner_, ranks, other.owner_);
  }

  // MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL.
  int compare(const group& other) const { return mpi::group_compare(owner_, other.owner_); }

 private:
  deferred_t<mpi::unique_group, Unused> owner_;  // deferred.hpp: nothing bound before use
};

}  // namespace detail

// The communicator's group (MPI_Comm_group).
inline group Communicator::group() const { return nampi::group::of(*this); }

inline bool Communicator::is_inter() const { return mpi::comm_test_inter(mpi::comm(comm_)); }
template <typename Unused>
inline int Communicator::remote_size() const {
#if defined(NAMPI_HAVE_MPI_COMM_REMOTE_SIZE)
  return mpi::comm_remote_size(mpi::comm(comm_));
#else
  static_assert(detail::dependent_false<Unused>,
                "nampi: the installed MPI does not provide MPI_Comm_remote_size");
  return 0;
#endif
}
template <typename Unused>
inline group Communicator::remote_group() const {
#if defined(NAMPI_HAVE_MPI_COMM_REMOTE_GROUP)
  return nampi::group(mpi::comm_remote_group(mpi::comm(comm_)));
#else
  static_assert(detail::dependent_false<Unused>,
                "nampi: the installed MPI does not provide MPI_Comm_remote_group");
  return nampi::group();
#endif
}

}  // namespace nampi
