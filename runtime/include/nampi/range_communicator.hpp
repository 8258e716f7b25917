// RangeCommunicator: the processes first, first + stride, ..., up to last of a communicator,
// made in O(1) without an MPI call or an allocation (RBC, "lightweight range communicators").
// It has the calls of its backend (spec/backends.yaml: point-to-point, probes and the
// blocking collectives) with the same names, parameters and inference as
// nampi::Communicator; they run as point-to-point messages on the parent communicator
// (nampi/range/). Tags 32752..32767 of the parent are reserved for them (range/tags.hpp).
#pragma once

#include <mpi.h>

#include "nampi/communicator.hpp"
#include "nampi/generated/backends.hpp"
#include "nampi/range/collectives.hpp"
#include "nampi/range/point_to_point.hpp"

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
  int parent_rank(int rank) const noexcept { return range_.parent_of(rank); }

  // A range of this range: first(f), last(l) and stride(s) are ranks of this range.
  template <typename... Args>
  basic_range_communicator range(Args&&... args) const {
    const spec s = checked(size(), args...);
    return basic_range_communicator(range_.parent, range_.parent_of(s.first),
                                    range_.stride * s.stride, (s.last - s.first) / s.stride + 1,
                                    in(s, rank()));
  }

  template <typename Call>
  static constexpr bool provides = generated::backends::range_has<Call>;

  // What the inference rules and the backend need to know of a call (range/handle.hpp).
  detail::range_context call_context(const char* call) const {
    NAMPI_CHECK(contains_me(), "%s: this process is not in the range", call);
    return {call, range_, range_.rank, range_.size};
  }

 private:
  friend class nampi::Communicator;

  struct spec {
    int first;
    int last;
    int stride;
  };

  basic_range_communicator(MPI_Comm parent, int first, int stride, int size, int rank) noexcept
      : range_{parent, first, stride, size, rank} {}

  // The range's rank of `rank` (of the communicator it is made from), or MPI_UNDEFINED.
  static int in(const spec& s, int rank) noexcept {
    if (rank == MPI_UNDEFINED || rank < s.first || rank > s.last || (rank - s.first) % s.stride)
      return MPI_UNDEFINED;
    return (rank - s.first) / s.stride;
  }

  // first, last and stride from named arguments, checked against a communicator of `size`.
  template <typename... Args>
  static spec spec_of(const Args&... args) {
    using namespace detail;
    static_assert(all_named<std::remove_cvref_t<Args>...>,
                  "nampi: range: every argument must be a named parameter: first(f), last(l), "
                  "stride(s)");
    static_assert(has_param<param_id::first, Args...>,
                  "nampi: range: missing required parameter 'first'");
    static_assert(has_param<param_id::last, Args...>,
                  "nampi: range: missing required parameter 'last'");
    static_assert(((is_param<param_id::first, Args>() || is_param<param_id::last, Args>() ||
                    is_param<param_id::stride, Args>()) &&
                   ...),
                  "nampi: range: takes only the parameters first, last and stride");
    static_assert(count_of<param_id::first, Args...> <= 1 &&
                      count_of<param_id::last, Args...> <= 1 &&
                      count_of<param_id::stride, Args...> <= 1,
                  "nampi: range: a parameter given more than once");
    if constexpr (has_param<param_id::first, Args...> && has_param<param_id::last, Args...>) {
      int stride = 1;
      if constexpr (has_param<param_id::stride, Args...>)
        stride = static_cast<int>(get_param<param_id::stride>(args...).value);
      return {static_cast<int>(get_param<param_id::first>(args...).value),
              static_cast<int>(get_param<param_id::last>(args...).value), stride};
    } else {
      return {0, 0, 1};
    }
  }

  template <typename... Args>
  static spec checked(int size, const Args&... args) {
    const spec s = spec_of(args...);
    NAMPI_CHECK(s.first >= 0 && s.first <= s.last && s.last < size && s.stride >= 1,
                "range: first %d, last %d, stride %d is no range of 0..%d (0 <= first <= last, "
                "stride >= 1)",
                s.first, s.last, s.stride, size - 1);
    return s;
  }

  detail::range_handle range_;
};

}  // namespace detail

template <typename... Args>
RangeCommunicator Communicator::range(Args&&... args) const {
  NAMPI_CHECK(!is_null(), "range: made from a null communicator");
  const auto s = RangeCommunicator::checked(size_, args...);
  return RangeCommunicator(comm_, s.first, s.stride, (s.last - s.first) / s.stride + 1,
                           RangeCommunicator::in(s, rank_));
}

}  // namespace nampi
