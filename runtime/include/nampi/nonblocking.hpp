// Results of nonblocking calls: they own what the call uses until it completes.
//
// `auto r = comm.iallgatherv(send_buf(v));` starts MPI_Iallgatherv and returns a
// nonblocking_result holding the request and every slot of the call: buffers
// it allocated (the receive buffer, computed counts and displacements) and
// buffers the caller moved in. Nothing in it can be read before completion:
// `r.wait()` returns what the blocking call would return (plus moved-in input
// buffers, handed back), and `r.test()` returns it once done. Buffers the
// caller passed as lvalues are referenced; keeping them alive and untouched
// until completion is the caller's duty, as in MPI.
//
// Destroying a pending result waits for it (like std::jthread joins): its
// buffers cannot be freed while MPI may still write them, and an assertion
// would leave the program no safe way on. An MPI error in that wait cannot be
// thrown from a destructor, so it terminates with MPI's message.
//
// Completing the request elsewhere (MPI_Waitall on mpi_request(), or a
// nampi::request_pool, see request_pool.hpp) and then calling
// take_completed(status) gives the value without another MPI call.
//
// On a range communicator the request is the call's algorithm (range/request.hpp):
// wait() and test() drive it, and it has no MPI request to complete elsewhere.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "nampi/detail/call_state.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"
#include "nampi/result.hpp"

namespace nampi {
namespace detail {

template <typename ArgList>
struct finish_result;
template <typename... Args>
struct finish_result<type_list<Args...>> {
  // The blocking call's result, moved out of the slots.
  template <typename... Slots>
  static auto from(pack<Slots...>& slots) {
    return apply_pack([](auto&... s) { return make_result<Args...>(s...); }, slots);
  }
};

struct start_tag {};

// Whether slot StatusIndex of Slots holds a status the caller sees (status_out),
// rather than an omitted one that MPI is told to ignore.
template <std::size_t StatusIndex, typename... Slots>
constexpr bool reports_status() {
  if constexpr (StatusIndex == no_status) {
    return false;
  } else {
    using slot = nth_t<StatusIndex, Slots...>;
    return !std::is_same_v<typename slot::object_type, status_ignored>;
  }
}

// The request of a nonblocking call made with the call context `Ctx` (MPI_Request, or a
// range communicator's range_request).
template <typename Ctx>
using request_of = typename std::remove_cvref_t<Ctx>::request_type;

}  // namespace detail

namespace detail::coro {
struct result_access;
}

// ArgList: the caller's argument types (they order the returned values);
// StatusIndex: the slot MPI_Wait/MPI_Test fill with the status, if any;
// Request: MPI_Request, or range_request on a range communicator.
template <typename ArgList, std::size_t StatusIndex, typename Request, typename... Slots>
class [[nodiscard]] nonblocking_result {
  using state = detail::call_state<Request, StatusIndex, Slots...>;

 public:
  // Its request is an MPI request (mpi_request(), request pools); not on a range.
  static constexpr bool has_mpi_request = std::is_same_v<Request, MPI_Request>;
  using value_type =
      decltype(detail::finish_result<ArgList>::from(std::declval<detail::pack<Slots...>&>()));
  // test(): whether it completed (no value), or the value once it has.
  using test_type = std::conditional_t<std::is_void_v<value_type>, bool, std::optional<value_type>>;
  // The call has a status parameter the caller sees: whoever completes the
  // request elsewhere passes MPI's status to take_completed().
  static constexpr bool has_status = detail::reports_status<StatusIndex, Slots...>();

  // Used by generated calls: moves the slots to the heap (their addresses must
  // not change while MPI uses them), then starts the call on them.
  template <typename Start, typename... S>
  nonblocking_result(detail::start_tag, const char* call, Start&& start, S&&... slots)
      : state_(call, std::forward<Start>(start), std::forward<S>(slots)...) {}

  nonblocking_result(nonblocking_result&&) noexcept = default;
  nonblocking_result& operator=(nonblocking_result&& other) noexcept {
    if (this != &other) {
      finish_quietly();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  ~nonblocking_result() { finish_quietly(); }

  // Waits for completion and returns what the blocking call returns.
  value_type wait() {
    check_holds("wait");
    detail::request_wait(state_.request(), state_.status());
    return take();
  }

  // Completed? Then the value (or true when the call returns nothing); the
  // result is empty afterwards. Not yet: an empty optional (or false).
  test_type test() {
    check_holds("test");
    const bool done = detail::request_test(state_.request(), state_.status());
    if constexpr (std::is_void_v<value_type>) {
      if (done) take();
      return done;
    } else {
      if (!done) return std::nullopt;
      return test_type(take());
    }
  }

  // Still holds a call whose value was not taken by wait() or test().
  bool holds_call() const noexcept { return state_.holds(); }

  // The MPI request, for MPI_Waitall and friends. Completing it there sets it
  // to MPI_REQUEST_NULL; take_completed() then gives the value. (wait() works
  // too, but issues an MPI_Wait on the null request, which writes MPI's empty
  // status into a status parameter.)
  // mpi_handle() is its name in every nampi type that holds an MPI handle; mpi_request() the
  // older one.
  MPI_Request& mpi_handle() {
    static_assert(has_mpi_request,
                  "nampi: mpi_handle(): a range communicator's nonblocking call has no MPI "
                  "request (its wait() and test() drive it)");
    return request_of("mpi_handle");
  }
  MPI_Request& mpi_request() {
    static_assert(has_mpi_request,
                  "nampi: mpi_request(): a range communicator's nonblocking call has no MPI "
                  "request (its wait() and test() drive it)");
    return request_of("mpi_request");
  }

  // The value of a call whose request was completed elsewhere (mpi_request()
  // is MPI_REQUEST_NULL): `status` is what MPI reported for the request, copied
  // into the status parameter if the call has one (has_status), or
  // MPI_STATUS_IGNORE. Issues no MPI call; the result is empty afterwards.
  value_type take_completed(const MPI_Status* status) {
    static_assert(has_mpi_request,
                  "nampi: take_completed(): a range communicator's nonblocking call completes "
                  "only through its wait() and test()");
    check_holds("take_completed");
    if constexpr (has_mpi_request) {
      NAMPI_ASSERT(state_.request() == MPI_REQUEST_NULL,
                   "%s: take_completed() on a request that is still pending", state_.call());
    }
    if constexpr (has_status) {
      if (status != MPI_STATUS_IGNORE) *state_.status() = *status;
    } else {
      (void)status;
    }
    return take();
  }

  // A pending result has nothing to read: the data arrives through wait() or
  // test(). Reading it directly, or using the result as its value, says so.
  template <std::size_t I>
  void get() const {
    static_assert(detail::dependent_false<std::integral_constant<std::size_t, I>>,
                  "nampi: a nonblocking call's data is reachable only through wait() or test() "
                  "(the call may still be writing it)");
  }
  template <typename T>
  operator T() const {
    static_assert(detail::dependent_false<T>,
                  "nampi: a nonblocking call returns a pending result, not its value: call "
                  "wait() (or test()) to get it");
    return std::declval<T>();
  }

 private:
  value_type take() {
    const auto done = state_.take();
    return detail::finish_result<ArgList>::from(done->slots);
  }

  void check_holds(const char* what) const {
    state_.check_holds(what, "on a result whose value was already taken");
  }

  MPI_Request& request_of(const char* what) {
    check_holds(what);
    if constexpr (has_mpi_request) {
      return state_.request();
    } else {  // (not compiled: the caller's assertion failed; one message, no second error)
      static MPI_Request none = MPI_REQUEST_NULL;
      return none;
    }
  }

  void finish_quietly() noexcept {
    if (state_.holds()) state_.wait_or_terminate("waiting for a destroyed pending result");
  }

  // nampi::task's awaiters reach a range communicator's call in progress
  // (coroutine/awaitables.hpp).
  friend struct detail::coro::result_access;

  state state_;
};

namespace detail {

// Starts a nonblocking call (see call_body.j2): `start(slots..., request)`
// issues the MPI function on the slots once they are in their final place.
template <typename ArgList, std::size_t StatusIndex, typename Request, typename Start,
          typename... Slots>
auto start_nonblocking(const char* call, Start&& start, Slots&&... slots) {
  return nonblocking_result<ArgList, StatusIndex, Request, std::remove_cvref_t<Slots>...>(
      start_tag{}, call, std::forward<Start>(start), std::forward<Slots>(slots)...);
}

}  // namespace detail
}  // namespace nampi
