// Persistent calls: set up once, started many times.
//
// `auto op = comm.allgatherv_init(send_buf(v));` runs the inference rules
// once (counts, displacements, the receive buffer) and calls
// MPI_Allgatherv_init. Each `op.start()` runs it again on the same buffers;
// `op.wait()` completes it and returns a view of what the blocking call would
// return: a reference to the buffer (or a result of references), which stays
// the call's and is valid until the next start. While a start is pending
// nothing can be read (`value()` asserts that it is not). Destroying a started
// call waits for it; MPI_Request_free releases it.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"
#include "nampi/nonblocking.hpp"
#include "nampi/result.hpp"

namespace nampi {
namespace detail {

template <typename ArgList>
struct view_of;
template <typename... Args>
struct view_of<type_list<Args...>> {
  template <typename... Slots>
  static decltype(auto) from(pack<Slots...>& slots) {
    return apply_pack([](auto&... s) -> decltype(auto) { return view_result<Args...>(s...); },
                      slots);
  }
};

}  // namespace detail

template <typename ArgList, std::size_t StatusIndex, typename... Slots>
class [[nodiscard]] persistent_call {
 public:
  // Used by generated calls: the slots move to the heap (MPI keeps their
  // addresses for the call's lifetime), then `init` creates the request.
  template <typename Init, typename... S>
  persistent_call(detail::start_tag, const char* call, Init&& init, S&&... slots)
      : state_(call, std::forward<Init>(init), std::forward<S>(slots)...) {}

  persistent_call(persistent_call&& other) noexcept
      : state_(std::move(other.state_)), started_(std::exchange(other.started_, false)) {}
  persistent_call& operator=(persistent_call&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
      started_ = std::exchange(other.started_, false);
    }
    return *this;
  }
  ~persistent_call() { release(); }

  // Starts the call (MPI_Start); it must not be started already.
  persistent_call& start() {
    check_idle("start");
    detail::call_mpi("MPI_Start", MPI_Start, &state_.request());
    started_ = true;
    return *this;
  }

  // Completes the started call and returns the view of its result.
  decltype(auto) wait() {
    check_holds("wait");
    detail::call_mpi("MPI_Wait", MPI_Wait, &state_.request(), state_.status());
    completed();
    return value();
  }

  // Completed? (Then value() reads the result.)
  bool test() {
    check_holds("test");
    int done = 0;
    detail::call_mpi("MPI_Test", MPI_Test, &state_.request(), &done, state_.status());
    if (done) completed();
    return done != 0;
  }

  // The result of the last completed start (references into the call's
  // storage); nothing to read while a start is pending.
  decltype(auto) value() {
    check_idle("value");
    return detail::view_of<ArgList>::from(state_.slots());
  }

  bool started() const noexcept { return state_.holds() && started_; }

  // The MPI request (for MPI_Startall and friends, and C libraries), by the name every nampi
  // type that holds an MPI handle gives it. Starting or completing it elsewhere: tell the
  // call with mark_started(true/false).
  MPI_Request& mpi_handle() {
    check_holds("mpi_handle");
    return state_.request();
  }
  // The same, by its older name.
  MPI_Request& mpi_request() {
    check_holds("mpi_request");
    return state_.request();
  }
  void mark_started(bool started) {
    check_holds("mark_started");
    if (started)
      started_ = true;
    else
      completed();
  }

  // A start completed elsewhere (its request made inactive by MPI_Waitsome and friends, as a
  // nampi::task's scheduler does): `status` is what MPI reported for it, copied into the status
  // parameter if the call has one, or MPI_STATUS_IGNORE. Returns value(); issues no MPI call.
  decltype(auto) take_completed(const MPI_Status* status) {
    check_holds("take_completed");
    NAMPI_ASSERT(started_, "%s: take_completed() needs a started call", state_.call());
    if constexpr (detail::reports_status<StatusIndex, Slots...>()) {
      if (status != MPI_STATUS_IGNORE) *state_.status() = *status;
    } else {
      (void)status;
    }
    completed();
    return value();
  }

  template <std::size_t I>
  void get() const {
    static_assert(detail::dependent_false<std::integral_constant<std::size_t, I>>,
                  "nampi: a persistent call's data is reachable only through wait() or value()");
  }

 protected:
  // For calls built on this one (partitioned.hpp): the checks below, and the
  // request of a started call.
  MPI_Request started_request(const char* what) const {
    check_holds(what);
    NAMPI_ASSERT(started_, "%s: %s() needs a started call (start first)", state_.call(), what);
    return state_.request();
  }
  const char* call_name() const noexcept { return state_.call(); }

 private:
  // A start completed: slots with work left then do it (exscan in place sets
  // rank 0's buffer to the op's identity, as each blocking call would).
  void completed() {
    started_ = false;
    detail::apply_pack(
        [](auto&... s) {
          const auto all = detail::refs(s...);
          (detail::finish_slot(s, all), ...);
        },
        state_.slots());
  }

  void check_holds(const char* what) const { state_.check_holds(what, "on a moved-from call"); }
  void check_idle(const char* what) const {
    check_holds(what);
    NAMPI_ASSERT(!started_, "%s: %s() while a start is pending (wait first)", state_.call(), what);
  }

  // Completes a pending start, then frees the request (MPI_Request_free).
  void release() noexcept {
    if (!state_.holds()) return;
    if (started_) state_.wait_or_terminate("completing a destroyed persistent call");
    if (state_.request() != MPI_REQUEST_NULL) {
      const int code = MPI_Request_free(&state_.request());
      if (code != MPI_SUCCESS)
        detail::terminate_in_destructor(state_.call(), "freeing a persistent call",
                                        mpi_error::error_string(code).c_str());
    }
    state_.reset();
  }

  detail::call_state<MPI_Request, StatusIndex, Slots...> state_;
  bool started_ = false;
};

// Starts several persistent calls with one MPI_Startall.
template <typename... Calls>
void start_all(Calls&... calls) {
  std::array<MPI_Request, sizeof...(Calls)> requests{calls.mpi_request()...};
  detail::call_mpi("MPI_Startall", MPI_Startall, static_cast<int>(requests.size()),
                   requests.data());
  std::size_t i = 0;
  ((calls.mpi_request() = requests[i++], calls.mark_started(true)), ...);
}

namespace detail {

// Sets up a persistent call (see family.hpp.j2): `init(slots..., request)`
// issues the MPI *_init function on the slots in their final place.
template <typename ArgList, std::size_t StatusIndex, typename Init, typename... Slots>
auto init_persistent(const char* call, Init&& init, Slots&&... slots) {
  return persistent_call<ArgList, StatusIndex, std::remove_cvref_t<Slots>...>(
      start_tag{}, call, std::forward<Init>(init), std::forward<Slots>(slots)...);
}

}  // namespace detail
}  // namespace nampi
