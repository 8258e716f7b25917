// What a nampi::task can co_await besides another task (nampi/task.hpp), each turned into an
// awaiter by awaitable_for():
//  * a nonblocking call's result with an MPI request: the task's scheduler waits for the
//    request among all others (scheduler.hpp); the value is what wait() returns;
//  * a started persistent or partitioned call (`co_await op.start()`): the same, and the value
//    is what its wait() returns (a view of the call's buffers);
//  * a request pool: every operation in it completes (its handlers run), polled with
//    test_all() once per round (pool_test);
//  * anything else with a test() (a range communicator's result, whose algorithm progresses
//    only when tested; the ulfm plugin's results): polled once per round of the scheduler.
// The awaiter holds a result awaited as a temporary (`co_await comm.ibarrier()`), and refers to
// one awaited by name (`co_await halo`), which is empty afterwards, as after its wait().
#pragma once

#include <mpi.h>

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "nampi/detail/coroutine/scheduler.hpp"
#include "nampi/error.hpp"
#include "nampi/nonblocking.hpp"
#include "nampi/persistent.hpp"

namespace nampi::detail::coro {

template <typename T>
inline constexpr bool is_nonblocking_result = false;
template <typename ArgList, std::size_t StatusIndex, typename Request, typename... Slots>
inline constexpr bool
    is_nonblocking_result<nonblocking_result<ArgList, StatusIndex, Request, Slots...>> = true;

// A persistent call, or one built on it (a partitioned call).
template <typename ArgList, std::size_t StatusIndex, typename... Slots>
std::true_type persistent_base(const persistent_call<ArgList, StatusIndex, Slots...>*);
std::false_type persistent_base(const void*);
template <typename T>
inline constexpr bool is_persistent_call =
    decltype(persistent_base(static_cast<const T*>(nullptr)))::value;

template <typename T>
concept testable = requires(T& t) { t.test(); };

// The task `task`, to resume on the strand it runs on.
template <typename Promise>
resumable resumable_of(std::coroutine_handle<Promise> task) noexcept {
  return {task, task.promise().running};
}

// Hold: the result's type (held) or a reference to it.
template <typename Hold>
class request_awaiter {
  using result_type = std::remove_reference_t<Hold>;

 public:
  explicit request_awaiter(Hold result) : result_(std::forward<Hold>(result)) {}

  // Completed elsewhere (MPI_REQUEST_NULL): nothing to wait for.
  bool await_ready() { return result_.mpi_request() == MPI_REQUEST_NULL; }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> task) {
    waited_ = true;
    task.promise().scheduler->wait_for(&result_.mpi_request(), status(), resumable_of(task));
  }
  decltype(auto) await_resume() {
    return result_.take_completed(waited_ ? status() : MPI_STATUS_IGNORE);
  }

 private:
  MPI_Status* status() noexcept { return result_type::has_status ? &status_ : MPI_STATUS_IGNORE; }

  Hold result_;
  MPI_Status status_{};
  bool waited_ = false;
};

// A started persistent (or partitioned) call; `co_await op.start()`.
template <typename Call>
class persistent_awaiter {
 public:
  explicit persistent_awaiter(Call& call) : call_(call) {
    NAMPI_CHECK(call.started(), "%s",
                "co_await on a persistent call that is not started: co_await op.start()");
  }

  bool await_ready() const noexcept { return false; }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> task) {
    task.promise().scheduler->wait_for(&call_.mpi_request(), &status_, resumable_of(task));
  }
  decltype(auto) await_resume() { return call_.take_completed(&status_); }

 private:
  Call& call_;
  MPI_Status status_{};
};

// What test() gives once done: the value (an optional's content), or nothing (a bool).
template <typename Tested>
struct tested_value {
  using type = typename Tested::value_type;
};
template <>
struct tested_value<bool> {
  using type = void;
};

// Anything awaited by polling its test() (see above).
template <typename Hold>
class polled_awaiter {
  using tested = decltype(std::declval<Hold&>().test());
  using value_type = typename tested_value<tested>::type;
  using stored = std::conditional_t<std::is_void_v<value_type>, bool, std::optional<value_type>>;

 public:
  explicit polled_awaiter(Hold result) : result_(std::forward<Hold>(result)) {}

  // One test before suspending: a call that completed at once needs no round.
  bool await_ready() { return poll(this); }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> task) {
    task.promise().scheduler->poll_for({resumable_of(task), &polled_awaiter::poll, this});
  }
  value_type await_resume() {
    if (error_) std::rethrow_exception(error_);
    if constexpr (!std::is_void_v<value_type>) return std::move(*value_);
  }

 private:
  // An exception of the test (an MPI error of the call) belongs to the awaiting task.
  static bool poll(void* self) noexcept {
    auto& a = *static_cast<polled_awaiter*>(self);
    try {
      if constexpr (std::is_void_v<value_type>) {
        return a.result_.test();
      } else {
        a.value_ = a.result_.test();
        return a.value_.has_value();
      }
    } catch (...) {
      a.error_ = std::current_exception();
      return true;
    }
  }

  Hold result_;
  stored value_{};
  std::exception_ptr error_;
};

// A request pool (nampi/request_pool.hpp) as something polled: its test_all() completes every
// operation in it at once (the handlers run), one MPI_Testall per round, none once empty.
template <typename Pool>
struct pool_test {
  Pool& pool;
  bool test() { return pool.test_all(); }
};

template <typename T>
concept request_pool_like = requires(T& p) {
  p.test_all();
  p.wait_all();
  p.empty();
};

// What a refused co_await turns into (after its one message): an awaiter of the value it
// would have given, so that the compiler says nothing more. (Never run: the unit fails.)
template <typename Value = void>
struct refused_awaiter {
  bool await_ready() const noexcept { return true; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  Value await_resume() const noexcept {
    if constexpr (!std::is_void_v<Value>)
      return *static_cast<std::remove_reference_t<Value>*>(nullptr);
  }
};

// The awaiter for `co_await x` in a task (the promise's await_transform).
template <typename X>
auto awaitable_for(X&& x) {
  using type = std::remove_cvref_t<X>;
  // Held when awaited as a temporary, referred to when awaited by name.
  using hold = std::conditional_t<std::is_lvalue_reference_v<X>, X, type>;
  if constexpr (is_nonblocking_result<type>) {
    if constexpr (type::has_mpi_request)
      return request_awaiter<hold>(std::forward<X>(x));
    else  // a range communicator's: its algorithm runs within its test()
      return polled_awaiter<hold>(std::forward<X>(x));
  } else if constexpr (is_persistent_call<type>) {
    if constexpr (!std::is_lvalue_reference_v<X>) {
      static_assert(std::is_lvalue_reference_v<X>,
                    "nampi::task: co_await a persistent call by name (co_await op.start()): its "
                    "value refers to the call's buffers, which a temporary would take along");
      return refused_awaiter<decltype(x.value())>{};
    } else {
      return persistent_awaiter<type>(x);
    }
  } else if constexpr (request_pool_like<type>) {
    static_assert(std::is_lvalue_reference_v<X>, "nampi::task: co_await a request pool by name");
    return polled_awaiter<pool_test<type>>(pool_test<type>{x});
  } else if constexpr (testable<type>) {
    return polled_awaiter<hold>(std::forward<X>(x));
  } else {
    static_assert(dependent_false<type>,
                  "nampi::task: co_await takes a nampi::task, a nonblocking call's result, a "
                  "started persistent or partitioned call, or a result with test() (a range "
                  "communicator's, a plugin's); nampi's scheduler cannot resume a task "
                  "suspended on anything else");
    return refused_awaiter<>{};
  }
}

}  // namespace nampi::detail::coro
