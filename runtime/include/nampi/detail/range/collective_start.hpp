// The start of a collective on a range: where its messages go and on which tags.
//
// They go over nampi's own context of the parent (nampi/detail/own_context.hpp), so they never meet
// the program's messages. Their tags tell this collective from every other collective that
// can be in flight with it: a block of range_tags::kinds tags at
//   collective_tags_begin + kinds * ((hash(range) + sequence number on the range) % slots)
// where slots is what fits below MPI_TAG_UB. Collectives on one range differ in their
// sequence numbers, so any number of them (up to slots) can be in flight at once and be
// completed in any order; collectives on two ranges differ in the ranges' hashes, and where
// two that share processes meet on the same block at a process, the second is refused there
// (usage_error) before it sends. The block is the collective's until it completes: its
// in-flight registration (collective_in_flight) ends then.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <utility>

#include "nampi/detail/own_context.hpp"
#include "nampi/detail/range/handle.hpp"
#include "nampi/detail/range/tags.hpp"
#include "nampi/error.hpp"
#include "nampi/tags.hpp"

namespace nampi::detail {

// The number of tag blocks above collective_tags_begin (the same at every process: MPI_TAG_UB
// is).
inline std::uint64_t collective_tag_slots() {
  static const std::uint64_t slots =
      static_cast<std::uint64_t>(tag_upper_bound() + 1 - own_tags::collective_tags_begin) /
      range_tags::kinds;
  return slots;
}

struct started_collective {
  range_handle wire;  // the range as the algorithm sends: on the context, on its tag block
  collective_in_flight in_flight;
};

// `function`: the MPI function the collective stands for (MPI_Ibcast), named where the call
// has no nampi name.
inline started_collective start_collective(const range_handle& r, const char* function) {
  const char* call = r.call != nullptr ? r.call : function;
  range_handle wire = r;
  wire.parent = own_comm(r.context, call);
  const range_identity id = r.identity();
  const own_context::ticket ticket =
      r.context->begin_collective(id, r.parent_of(r.rank), call, collective_tag_slots());
  wire.tag = own_tags::collective_tags_begin + static_cast<int>(ticket.slot) * range_tags::kinds;
  return {wire, collective_in_flight(r.context, ticket.id)};
}

}  // namespace nampi::detail
