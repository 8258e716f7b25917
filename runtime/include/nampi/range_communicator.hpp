// RangeCommunicator: the processes first, first + stride, ..., up to last of a communicator,
// made in O(1) without an MPI call or an allocation (RBC, "lightweight range communicators").
// It has the calls of its backend (spec/backends.yaml: point-to-point, probes and the
// collectives, blocking and nonblocking) with the same names, parameters and inference as
// nampi::Communicator; they run as point-to-point messages on the parent communicator
// (nampi/detail/range/): point-to-point calls on the parent itself, collectives on nampi's own
// context of the parent (nampi/detail/own_context.hpp), where no message of the program can meet
// theirs. Each collective has tags of its own there (range/collective_start.hpp), so
// nonblocking collectives on one range or on ranges that share processes can be in flight at
// once and be completed in any order; tag(t) makes a range's tags differ from another's of the
// same processes.
#pragma once

#include <mpi.h>

#include "nampi/communicator.hpp"
#include "nampi/detail/check_call.hpp"
#include "nampi/detail/range/collectives.hpp"
#include "nampi/detail/range/point_to_point.hpp"
#include "nampi/generated/backends.hpp"

// comm.range(...)'s tag for the generic check of its arguments (nampi/detail/check_call.hpp).
namespace nampi::call {
struct range : detail::tag_defaults {
  static constexpr bool in_place = false;
  using required = detail::id_list<param_id::first, param_id::last>;
  using taken = detail::id_list<param_id::first, param_id::last, param_id::stride, param_id::tag>;
};
}  // namespace nampi::call

namespace nampi {
namespace detail {

// A template only so that including nampi.hpp instantiates none of its calls' declarations
// (a class would: a third of an include-only unit's compile memory); nampi::RangeCommunicator
// is its one instance.
template <typename Unused>
class basic_range_communicator : public generated::all_calls<basic_range_communicator<Unused>> {
 public:
  // The rank in the range; MPI_UNDEFINED at a process outside it, which can make ranges of
  // it but run no call on it.
  int rank() const noexcept { return range_.rank; }
  int size() const noexcept { return range_.size; }
  bool contains_me() const noexcept { return range_.rank != MPI_UNDEFINED; }
  // The parent: the MPI communicator the range's messages go over, and a rank's rank there.
  MPI_Comm parent_communicator() const noexcept { return range_.parent; }
  // The MPI handle (as every nampi type that holds one gives it): a range has no communicator
  // of its own, so it is the parent's, whose ranks differ from the range's (parent_rank).
  MPI_Comm mpi_handle() const noexcept { return range_.parent; }
  int parent_rank(int rank) const noexcept { return range_.parent_of(rank); }
  // nampi's own context of the parent (nampi/detail/own_context.hpp), or nullptr where it has
  // none.
  nampi::detail::own_context* own_context() const noexcept { return range_.context; }

  // A range of this range: first(f), last(l) and stride(s) are ranks of this range; it
  // keeps this range's tag unless given tag(t).
  template <typename... Args>
  basic_range_communicator range(Args&&... args) const {
    const spec s = checked(size(), range_.tag, args...);
    return basic_range_communicator(range_.parent, range_.parent_of(s.first),
                                    range_.stride * s.stride, (s.last - s.first) / s.stride + 1,
                                    in(s, rank()), s.tag, range_.context);
  }

  // The tag it was made with (part of what tells its collectives from others'), or
  // range_handle::no_tag.
  int tag() const noexcept { return range_.tag; }

  // The same processes as a range of nampi's own context of the parent (janus_sort's tasks):
  // its point-to-point calls too go where the program's messages cannot meet them.
  basic_range_communicator internal(const char* call) const {
    basic_range_communicator out = *this;
    out.range_.parent = own_comm(range_.context, call);
    return out;
  }

  template <typename Call>
  static constexpr bool provides = generated::backends::range_has<Call>;
  // Its collectives take no tag(t): the range's own (range(..., tag(t))) with a sequence number
  // gives each one its tags (nampi/detail/check_call.hpp, spec/backends.yaml tag_at_creation).
  static constexpr bool tag_at_creation = true;

  // What the inference rules and the backend need to know of a call (range/handle.hpp).
  detail::range_context call_context(const char* call) const {
    NAMPI_CHECK(contains_me(), "%s: this process is not in the range", call);
    detail::range_handle named = range_;
    named.call = call;
    return {call, named, range_.rank, range_.size};
  }

 private:
  friend class nampi::Communicator;

  struct spec {
    int first;
    int last;
    int stride;
    int tag;
  };

  basic_range_communicator(MPI_Comm parent, int first, int stride, int size, int rank, int tag,
                           nampi::detail::own_context* context) noexcept
      : range_{parent, first, stride, size, rank, tag, context} {}

  // The range's rank of `rank` (of the communicator it is made from), or MPI_UNDEFINED.
  static int in(const spec& s, int rank) noexcept {
    if (rank == MPI_UNDEFINED || rank < s.first || rank > s.last || (rank - s.first) % s.stride)
      return MPI_UNDEFINED;
    return (rank - s.first) / s.stride;
  }

  // first, last, stride and tag from named arguments, checked against a communicator of
  // `size`; `tag` where none is given. Misuse is the one error of the generic check.
  template <typename... Args>
  static spec spec_of(int tag, const Args&... args) {
    using namespace detail;
    if constexpr (!check_call<call::range, std::remove_cvref_t<Args>...>()) {
      return {0, 0, 1, tag};
    } else {
      int stride = 1;
      if constexpr (has_param<param_id::stride, Args...>)
        stride = static_cast<int>(get_param<param_id::stride>(args...).value);
      if constexpr (has_param<param_id::tag, Args...>)
        tag = static_cast<int>(get_param<param_id::tag>(args...).value);
      return {static_cast<int>(get_param<param_id::first>(args...).value),
              static_cast<int>(get_param<param_id::last>(args...).value), stride, tag};
    }
  }

  template <typename... Args>
  static spec checked(int size, int tag, const Args&... args) {
    const spec s = spec_of(tag, args...);
    NAMPI_CHECK(s.first >= 0 && s.first <= s.last && s.last < size && s.stride >= 1,
                "range: first %d, last %d, stride %d is no range of 0..%d (0 <= first <= last, "
                "stride >= 1)",
                s.first, s.last, s.stride, size - 1);
    NAMPI_CHECK(s.tag == range_handle::no_tag || s.tag >= 0,
                "range: tag %d is no tag (0 or more; below the parent's MPI_TAG_UB)", s.tag);
    return s;
  }

  detail::range_handle range_;
};

}  // namespace detail

template <typename... Args>
RangeCommunicator Communicator::range(Args&&... args) const {
  NAMPI_CHECK(!is_null(), "range: made from a null communicator");
  const auto s = RangeCommunicator::checked(size_, detail::range_handle::no_tag, args...);
  return RangeCommunicator(comm_, s.first, s.stride, (s.last - s.first) / s.stride + 1,
                           RangeCommunicator::in(s, rank_), s.tag, context_);
}

}  // namespace nampi
