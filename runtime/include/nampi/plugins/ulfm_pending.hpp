// The result of the ulfm plugin's nonblocking calls (comm.iagree(flag), comm.ishrink()): it
// owns what MPI writes until the request completes (the flag, the new communicator), so that
// nothing can be read before then. wait() returns what the blocking call returns; test()
// returns it once done. Destroying a pending result waits for it, as nampi's other
// nonblocking results do (nampi/nonblocking.hpp); a communicator it made and nobody took is
// freed then.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <utility>

#include "nampi/detail/call_state.hpp"
#include "nampi/error.hpp"

namespace nampi::plugins {

// State: the call's name (State::call), its request and what MPI writes (at a fixed address:
// the result may move, the state does not), take() for the value after completion and
// discard() for a completed value nobody took.
template <typename State>
class [[nodiscard]] ulfm_pending {
 public:
  explicit ulfm_pending(std::unique_ptr<State> state) : state_(std::move(state)) {}
  ulfm_pending(ulfm_pending&&) noexcept = default;
  ulfm_pending& operator=(ulfm_pending&& other) noexcept {
    if (this != &other) {
      finish_or_terminate();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  ulfm_pending(const ulfm_pending&) = delete;
  ulfm_pending& operator=(const ulfm_pending&) = delete;
  ~ulfm_pending() { finish_or_terminate(); }

  // Completes the call (MPI_Wait) and returns its value; the result is empty afterwards.
  auto wait() {
    check_holds("wait");
    detail::call_mpi("MPI_Wait", MPI_Wait, &state_->request, MPI_STATUS_IGNORE);
    return take();
  }

  // The value if the call has completed (MPI_Test), else nothing; empty once it returned one.
  auto test() -> std::optional<decltype(std::declval<State&>().take())> {
    check_holds("test");
    int done = 0;
    detail::call_mpi("MPI_Test", MPI_Test, &state_->request, &done, MPI_STATUS_IGNORE);
    if (done == 0) return std::nullopt;
    return take();
  }

  // The MPI request, for whoever completes it elsewhere (a nampi::task's scheduler, among
  // other requests); take_completed() then gives the value without another MPI call.
  static constexpr bool has_status = false;
  MPI_Request& mpi_request() {
    check_holds("mpi_request");
    return state_->request;
  }
  auto take_completed(const MPI_Status*) {
    check_holds("take_completed");
    NAMPI_ASSERT(state_->request == MPI_REQUEST_NULL,
                 "%s: take_completed() on a request that is still pending", State::call);
    return take();
  }

  // Whether it still holds a call (not yet returned by wait() or test()).
  bool valid() const noexcept { return state_ != nullptr; }

 private:
  auto take() {
    std::unique_ptr<State> state = std::move(state_);
    return state->take();
  }

  // Always checked, also with NDEBUG: the state is gone, so going on would read freed memory.
  void check_holds(const char* what) const {
    NAMPI_CHECK(state_ != nullptr, "%s: %s() on a result whose value was already returned",
                State::call, what);
  }

  void finish_or_terminate() noexcept {
    if (state_ == nullptr) return;
    if (state_->request != MPI_REQUEST_NULL) {
      const int code = MPI_Wait(&state_->request, MPI_STATUS_IGNORE);
      if (code != MPI_SUCCESS)
        detail::terminate_in_destructor(State::call, "waiting in the destructor",
                                        mpi_error::error_string(code).c_str());
    }
    state_->discard();
    state_.reset();
  }

  std::unique_ptr<State> state_;
};

}  // namespace nampi::plugins
