// What a nonblocking or persistent call keeps while MPI uses it, shared by
// nonblocking_result (nonblocking.hpp) and persistent_call (persistent.hpp):
// its slots on the heap (MPI holds their addresses, so they must not move when
// the result does), its request, the status MPI_Wait and MPI_Test fill, and the
// call's name for messages. The request is an MPI_Request, or on a range
// communicator a range_request (range/request.hpp): its algorithm, which
// wait() and test() drive.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/owned.hpp"
#include "nampi/detail/recycled_blocks.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

// StatusIndex of a call without a status parameter.
inline constexpr std::size_t no_status = static_cast<std::size_t>(-1);

// A destructor cannot throw: an MPI error while it completes or frees a request
// ends the program with MPI's message.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold]] NAMPI_OUT_OF_LINE void terminate_in_destructor(const char* call,
                                                                       const char* doing,
                                                                       const char* why) noexcept;
#else
[[noreturn, gnu::cold]] NAMPI_OUT_OF_LINE void terminate_in_destructor(const char* call,
                                                                       const char* doing,
                                                                       const char* why) noexcept {
  std::fprintf(stderr, "nampi: %s: %s failed: %s\n", call, doing, why);
  std::terminate();
}
#endif

// Completing a request, whichever kind: MPI's own here; a range_request's are its members.
inline bool request_pending(const MPI_Request& request) noexcept {
  return request != MPI_REQUEST_NULL;
}
template <typename Request>
bool request_pending(const Request& request) noexcept {
  return request.pending();
}
inline void request_wait(MPI_Request& request, MPI_Status* status) {
  call_mpi("MPI_Wait", MPI_Wait, &request, status);
}
template <typename Request>
void request_wait(Request& request, MPI_Status* status) {
  request.wait(status);
}
inline bool request_test(MPI_Request& request, MPI_Status* status) {
  int done = 0;
  call_mpi("MPI_Test", MPI_Test, &request, &done, status);
  return done != 0;
}
template <typename Request>
bool request_test(Request& request, MPI_Status* status) {
  return request.test(status);
}

// A request before its call starts.
template <typename Request>
Request null_request() noexcept {
  if constexpr (std::is_same_v<Request, MPI_Request>)
    return MPI_REQUEST_NULL;
  else
    return Request();
}

template <typename Request, std::size_t StatusIndex, typename... Slots>
class call_state {
 public:
  // The slots come from the thread's recycled blocks (a loop of calls allocates none), where
  // operator new's alignment suffices.
  struct held : std::conditional_t<alignof(pack<Slots...>) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                                   recycled_allocation, heap_allocation> {
    template <typename... S>
    explicit held(S&&... s) : slots{{{std::forward<S>(s)}...}} {}
    pack<Slots...> slots;
    Request request = null_request<Request>();
  };

  // Moves the slots to the heap, then `issue(slots..., &request)` starts (or
  // sets up) the MPI call on them in their final place.
  template <typename Issue, typename... S>
  call_state(const char* call, Issue&& issue, S&&... slots)
      : call_(call), held_(make_owned<held>(std::forward<S>(slots)...)) {
    apply_pack([&](auto&... s) { issue(s..., &held_->request); }, held_->slots);
  }

  bool holds() const noexcept { return held_ != nullptr; }
  const char* call() const noexcept { return call_; }
  Request& request() noexcept { return held_->request; }
  const Request& request() const noexcept { return held_->request; }
  pack<Slots...>& slots() noexcept { return held_->slots; }

  // Where MPI_Wait and MPI_Test write the status: the status slot, or MPI_STATUS_IGNORE.
  MPI_Status* status() {
    if constexpr (StatusIndex == no_status)
      return MPI_STATUS_IGNORE;
    else
      return to_mpi_status(pick<StatusIndex>(held_->slots));
  }

  // `what`() needs a held call; `gone` says why there is none.
  void check_holds(const char* what, const char* gone) const {
    NAMPI_ASSERT(held_ != nullptr, "%s: %s() %s", call_, what, gone);
    (void)what;
    (void)gone;
  }

  // Waits for a pending request (a destructor's wait).
  void wait_or_terminate(const char* doing) noexcept {
    if (!request_pending(held_->request)) return;
    if constexpr (std::is_same_v<Request, MPI_Request>) {
      const int code = MPI_Wait(&held_->request, status());
      if (code != MPI_SUCCESS)
        terminate_in_destructor(call_, doing, mpi_error::error_string(code).c_str());
    } else {
      try {
        held_->request.wait(status());
      } catch (const std::exception& e) {
        terminate_in_destructor(call_, doing, e.what());
      }
    }
  }

  // Hands the slots over; nothing is held afterwards.
  owned<held> take() noexcept { return std::move(held_); }
  void reset() noexcept { held_.reset(); }

 private:
  const char* call_;
  owned<held> held_;
};

}  // namespace nampi::detail
