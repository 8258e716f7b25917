// Everything generated call bodies use, in one include.
#pragma once

#include "nampi/detail/buffer_checks.hpp"
#include "nampi/detail/buffer_kind.hpp"
#include "nampi/detail/coroutine/strand.hpp"
#include "nampi/detail/exscan.hpp"
#include "nampi/detail/infer.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/large_count_alltoallw.hpp"
#include "nampi/detail/large_count_reduction.hpp"
#include "nampi/detail/op_checks.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/message.hpp"
#include "nampi/nonblocking.hpp"
#include "nampi/ops.hpp"
#include "nampi/parameter.hpp"
#include "nampi/partitioned.hpp"
#include "nampi/persistent.hpp"
#include "nampi/result.hpp"
#include "nampi/tags.hpp"
#include "nampi/types.hpp"

namespace nampi::detail {

// `Value`, as a constant that depends on a call's arguments: a check built on
// it is evaluated when the call is used, not when its header is read.
template <bool Value, typename... Args>
inline constexpr bool when_called = Value;

// Whether the communicator type Comm has the call form Call as a member: its backend
// provides every MPI function the call may issue (spec/backends.yaml; MPI itself has all).
template <typename Comm, typename Call>
inline constexpr bool provides = Comm::template provides<Call>;

// call<T>()'s T, or E where the caller wrote call(...) (spec `element: template or <buffer>`).
template <typename T, typename E>
using element_or_t = std::conditional_t<std::is_same_v<T, unspecified_element>, E, T>;

// Buffer Id among Args holds elements of T (or is absent or serialized: other checks say so).
template <typename T, auto Id, typename... Args>
constexpr bool element_is() {
  using E = typename decltype(element_of_param<Id, Args...>())::type;
  return std::is_void_v<E> || std::is_same_v<std::remove_cv_t<E>, T>;
}

// Stands in for the receive buffer of calls that return none.
struct no_primary_slot {
  static constexpr bool returned = false;
  static constexpr int id = -1;
};
inline no_primary_slot no_primary;

// What a call whose compile-time checks failed returns: it converts to
// anything, so that `auto r = comm.call(...)` adds no second error to the
// check's message.
struct failed_call {
  template <typename T>
  operator T() const;
};

}  // namespace nampi::detail
