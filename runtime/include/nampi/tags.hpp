// Wildcards and the range check of tags (spec/parameters.yaml `check: tag` and
// `check: send_tag`): a tag MPI cannot carry is a usage_error before the call's
// first MPI call, instead of whatever the MPI makes of it.
#pragma once

#include <mpi.h>

#include <string>

#include "nampi/detail/infer.hpp"
#include "nampi/error.hpp"

namespace nampi {

// Receive from any rank / with any tag: source(nampi::any_source), recv_tag(nampi::any_tag).
inline constexpr int any_source = MPI_ANY_SOURCE;
inline constexpr int any_tag = MPI_ANY_TAG;

namespace detail {

// The standard guarantees MPI_TAG_UB >= 32767: smaller tags need no query.
inline constexpr long long guaranteed_tag_ub = 32767;

// MPI_TAG_UB, asked once per process (MPI_Comm_get_attr on MPI_COMM_WORLD).
inline long long tag_upper_bound() {
  static const long long ub = [] {
    void* value = nullptr;
    int flag = 0;
    call_mpi("MPI_Comm_get_attr", MPI_Comm_get_attr, MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
    return flag != 0 ? static_cast<long long>(*static_cast<int*>(value)) : guaranteed_tag_ub;
  }();
  return ub;
}

inline void check_tag_value([[maybe_unused]] const char* call, [[maybe_unused]] long long tag,
                            [[maybe_unused]] bool any_allowed) {
  if constexpr (NAMPI_ASSERTION_LEVEL > 0) {
    if (tag >= 0 && tag <= guaranteed_tag_ub) [[likely]]
      return;
    if (any_allowed && tag == MPI_ANY_TAG) return;
    NAMPI_ASSERT(tag >= 0 && tag <= tag_upper_bound(), "%s: tag %lld is outside 0..MPI_TAG_UB%s",
                 call, tag, any_allowed ? " (and not MPI_ANY_TAG)" : "");
  }
}

// A tag of a receive or a probe (MPI_ANY_TAG allowed), or of a send (MPI rejects
// MPI_ANY_TAG there itself).
template <typename Ctx, typename Slot>
void check_tag(const Ctx& ctx, const Slot& tag) {
  check_tag_value(ctx.call, static_cast<long long>(tag.get()), true);
}

// The tag of a message sent (sendrecv's send_tag): MPI_ANY_TAG is no tag to send.
template <typename Ctx, typename Slot>
void check_send_tag(const Ctx& ctx, const Slot& tag) {
  check_tag_value(ctx.call, static_cast<long long>(tag.get()), false);
}

}  // namespace detail
}  // namespace nampi
