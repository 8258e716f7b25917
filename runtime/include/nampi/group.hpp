// nampi::group: an MPI group (MPI_Group), owned and freed by its destructor,
// with MPI's group operations as members. Groups are local: no operation here
// communicates. A communicator's group is `comm.group()`; `comm.create(group(g))`
// and `comm.create_group(group(g), tag(t))` make a communicator of one.
#pragma once

#include <mpi.h>

#include <array>
#include <utility>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/error.hpp"
#include "nampi/mpi/handles.hpp"
#include "nampi/narrow.hpp"

namespace nampi {

class group {
 public:
  // As a C handle for MPI calls (the named calls' `group(g)` passes it so).
  using c_type = MPI_Group;

  // MPI_GROUP_NULL.
  group() noexcept = default;
  // Takes ownership of `g` (a predefined group such as MPI_GROUP_EMPTY is kept, never freed).
  explicit group(MPI_Group g) noexcept : owner_(mpi::group(g)) {}

  group(group&&) noexcept = default;
  group& operator=(group&&) noexcept = default;
  group(const group&) = delete;
  group& operator=(const group&) = delete;

  // The group of a communicator (MPI_Comm_group).
  static group of(const Communicator& comm) {
    MPI_Group g = MPI_GROUP_NULL;
    detail::call_mpi("MPI_Comm_group", MPI_Comm_group, comm.mpi_communicator(), &g);
    return group(g);
  }

  MPI_Group get() const noexcept { return owner_.get(); }
  MPI_Group mpi_group() const noexcept { return owner_.get(); }
  bool is_null() const noexcept { return owner_.is_null(); }

  int size() const {
    int n = 0;
    detail::call_mpi("MPI_Group_size", MPI_Group_size, get(), &n);
    return n;
  }
  // This process's rank in the group; MPI_UNDEFINED if it is not a member.
  int rank() const {
    int r = MPI_UNDEFINED;
    detail::call_mpi("MPI_Group_rank", MPI_Group_rank, get(), &r);
    return r;
  }

  // The members at `ranks`, in that order (MPI_Group_incl).
  group incl(const std::vector<int>& ranks) const {
    return made("MPI_Group_incl", MPI_Group_incl, get(), count("group::incl", ranks.size()),
                ranks.data());
  }
  // The members not at `ranks`, in their order here (MPI_Group_excl).
  group excl(const std::vector<int>& ranks) const {
    return made("MPI_Group_excl", MPI_Group_excl, get(), count("group::excl", ranks.size()),
                ranks.data());
  }
  // The members at the ranks of (first, last, stride) triplets (MPI_Group_range_incl).
  group range_incl(const std::vector<std::array<int, 3>>& ranges) const {
    return made("MPI_Group_range_incl", MPI_Group_range_incl, get(),
                count("group::range_incl", ranges.size()), triplets(ranges));
  }
  // The members not at those ranks (MPI_Group_range_excl).
  group range_excl(const std::vector<std::array<int, 3>>& ranges) const {
    return made("MPI_Group_range_excl", MPI_Group_range_excl, get(),
                count("group::range_excl", ranges.size()), triplets(ranges));
  }

  // Set operations, ordered as MPI orders them: this group's members first.
  // (`union` is a C++ keyword, hence union_with.)
  group union_with(const group& other) const {
    return made("MPI_Group_union", MPI_Group_union, get(), other.get());
  }
  group intersection(const group& other) const {
    return made("MPI_Group_intersection", MPI_Group_intersection, get(), other.get());
  }
  group difference(const group& other) const {
    return made("MPI_Group_difference", MPI_Group_difference, get(), other.get());
  }

  // The ranks in `other` of the members at `ranks` here (MPI_UNDEFINED where
  // one is not in `other`; MPI_PROC_NULL stays MPI_PROC_NULL).
  std::vector<int> translate_ranks(const std::vector<int>& ranks, const group& other) const {
    std::vector<int> out(ranks.size(), MPI_UNDEFINED);
    detail::call_mpi("MPI_Group_translate_ranks", MPI_Group_translate_ranks, get(),
                     count("group::translate_ranks", ranks.size()), ranks.data(), other.get(),
                     out.data());
    return out;
  }

  // MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL.
  int compare(const group& other) const {
    int result = MPI_UNEQUAL;
    detail::call_mpi("MPI_Group_compare", MPI_Group_compare, get(), other.get(), &result);
    return result;
  }

 private:
  template <typename Function, typename... Args>
  static group made(const char* name, Function function, Args... args) {
    MPI_Group g = MPI_GROUP_NULL;
    detail::call_mpi(name, function, args..., &g);
    return group(g);
  }
  static int count(const char* call, std::size_t n) {
    return detail::narrow<int>(n, call, "ranks", "an int count");
  }
  // MPI takes the triplets as int[][3]; std::array<int, 3> has that layout.
  static int (*triplets(const std::vector<std::array<int, 3>>& ranges))[3] {
    static_assert(sizeof(std::array<int, 3>) == 3 * sizeof(int));
    return reinterpret_cast<int (*)[3]>(const_cast<std::array<int, 3>*>(ranges.data()));
  }

  mpi::unique_group owner_;
};

// The communicator's group (MPI_Comm_group).
inline group Communicator::group() const { return nampi::group::of(*this); }

}  // namespace nampi
