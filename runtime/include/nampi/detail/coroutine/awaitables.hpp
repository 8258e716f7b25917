// What a nampi::task can co_await besides another task (nampi/task.hpp), each turned into an
// awaiter by awaitable_for():
//  * a nonblocking call's result with an MPI request: the task's scheduler waits for the
//    request among all others (scheduler.hpp); the value is what wait() returns;
//  * a started persistent or partitioned call (`co_await op.start()`): the same, and the value
//    is what its wait() returns (a view of the call's buffers);
//  * the ulfm plugin's results (iagree, ishrink): the same;
//  * a range communicator's result: the scheduler waits for the requests of its algorithm's
//    rounds of messages among all others (range_awaiter);
//  * a request pool: every operation in it completes (its handlers run), its requests waited
//    for among all others (pool_awaiter).
// The awaiter holds a result awaited as a temporary (`co_await comm.ibarrier()`), and refers to
// one awaited by name (`co_await halo`), which is empty afterwards, as after its wait().
#pragma once

#include <mpi.h>

#include <concepts>
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "nampi/detail/coroutine/scheduler.hpp"
#include "nampi/detail/range/task.hpp"
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

// What a nonblocking result keeps to itself, for the awaiters here: a range communicator's
// call in progress (range/request.hpp).
struct result_access {
  template <typename Result>
  static auto& request_of(Result& result) {
    return result.state_.request();
  }
};

// A range communicator's nonblocking result: its algorithm (range/task.hpp) goes on whenever
// its result is tested, and between tests it waits for a round of messages. The scheduler
// waits for each round's requests among all others (a request_group); once they completed, one
// test() runs the algorithm on to its next round or its end. An algorithm that looks for a
// message (MPI_Iprobe) has no round: it is polled until it has one again.
template <typename Hold>
class range_awaiter {
  using tested = decltype(std::declval<Hold&>().test());
  using value_type = typename tested_value<tested>::type;
  using stored = std::conditional_t<std::is_void_v<value_type>, bool, std::optional<value_type>>;

 public:
  explicit range_awaiter(Hold result) : result_(std::forward<Hold>(result)) {}
  range_awaiter(const range_awaiter&) = delete;
  range_awaiter& operator=(const range_awaiter&) = delete;

  // One test before suspending: a call that completed at once needs no round.
  bool await_ready() noexcept { return test(); }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> task) {
    scheduler_ = task.promise().scheduler;
    task_ = resumable_of(task);
    wait_for_round();
  }
  value_type await_resume() {
    if (error_) std::rethrow_exception(error_);
    if constexpr (!std::is_void_v<value_type>) return std::move(*value_);
  }

 private:
  // Whether the call has ended (its value, or its exception, kept for the task).
  bool test() noexcept {
    try {
      if constexpr (std::is_void_v<value_type>) {
        return result_.test();
      } else {
        value_ = result_.test();
        return value_.has_value();
      }
    } catch (...) {
      error_ = std::current_exception();
      return true;
    }
  }

  void wait_for_round() noexcept {
    round_ = result_access::request_of(result_).waiting_round();
    if (round_ == nullptr) {
      scheduler_->poll_for({&range_awaiter::poll, this});
      return;
    }
    group_ = {round_->size(), &range_awaiter::advance, this};
    for (std::size_t i = 0; i < round_->size(); ++i)
      scheduler_->wait_for(round_->request(i), round_->status_of(i), group_);
  }

  // The round's requests completed: the algorithm goes on.
  static void advance(void* self) noexcept {
    auto& a = *static_cast<range_awaiter*>(self);
    a.round_->completed_elsewhere();
    if (a.test())
      a.scheduler_->make_ready(a.task_);
    else
      a.wait_for_round();
  }

  // No round: one look; done with the entry once the call ended or waits for a round.
  static bool poll(void* self) noexcept {
    auto& a = *static_cast<range_awaiter*>(self);
    if (a.test()) {
      a.scheduler_->make_ready(a.task_);
      return true;
    }
    if (result_access::request_of(a.result_).waiting_round() == nullptr) return false;
    a.wait_for_round();
    return true;
  }

  Hold result_;
  stored value_{};
  std::exception_ptr error_;
  scheduler_core* scheduler_ = nullptr;
  resumable task_{};
  range_round* round_ = nullptr;
  request_group group_;
};

// A request pool's private parts, for pool_awaiter (nampi/request_pool.hpp).
struct pool_access {
  // The scheduler waits for every request in flight in the pool, statuses where needed.
  template <typename Pool>
  static void wait_through(Pool& pool, scheduler_core& scheduler, request_group& group) {
    pool.check_not_awaited("co_await");  // a second task would complete the requests twice
    pool.statuses();                     // sized for the slots, if an operation needs its status
    group.pending = pool.in_flight_;
    for (std::size_t i = 0; i < pool.requests_.size(); ++i) {
      if (!pool.operations_[i].holds_operation()) continue;
      MPI_Status* status =
          pool.operations_[i].needs_status() ? &pool.statuses_[i] : MPI_STATUS_IGNORE;
      scheduler.wait_for(&pool.requests_[i], status, group);
    }
    pool.awaited_ = true;
  }
  // They all completed: the handlers run, as after wait_all().
  template <typename Pool>
  static void completed(Pool& pool) {
    pool.awaited_ = false;
    pool.complete_all();
  }
  // The awaiting task was destroyed first: the pool completes its requests itself again.
  template <typename Pool>
  static void released(Pool& pool) noexcept {
    pool.awaited_ = false;
  }
};

// `co_await pool`: every operation in flight completes and its handler runs, as with
// wait_all(); the requests are waited for among all others (a request_group). Meanwhile the
// pool refuses every other use: its requests are the scheduler's until then.
template <typename Pool>
class pool_awaiter {
 public:
  explicit pool_awaiter(Pool& pool) noexcept : pool_(pool) {}
  pool_awaiter(const pool_awaiter&) = delete;
  pool_awaiter& operator=(const pool_awaiter&) = delete;
  ~pool_awaiter() {
    if (waiting_) pool_access::released(pool_);
  }

  bool await_ready() const noexcept { return pool_.empty(); }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> task) {
    scheduler_ = task.promise().scheduler;
    task_ = resumable_of(task);
    group_ = {0, &pool_awaiter::advance, this};
    pool_access::wait_through(pool_, *scheduler_, group_);
    waiting_ = true;
  }
  void await_resume() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // A handler's exception belongs to the awaiting task.
  static void advance(void* self) noexcept {
    auto& a = *static_cast<pool_awaiter*>(self);
    a.waiting_ = false;
    try {
      pool_access::completed(a.pool_);
    } catch (...) {
      a.error_ = std::current_exception();
    }
    a.scheduler_->make_ready(a.task_);
  }

  Pool& pool_;
  bool waiting_ = false;
  std::exception_ptr error_;
  scheduler_core* scheduler_ = nullptr;
  resumable task_{};
  request_group group_;
};

template <typename T>
concept request_pool_like = requires(T& p) {
  p.test_all();
  p.wait_all();
  p.empty();
};

// A result other than nampi's nonblocking_result with one MPI request that whoever completes
// it hands back (the ulfm plugin's iagree and ishrink).
template <typename T>
concept completes_by_request = requires(T& t, const MPI_Status* status) {
  { t.mpi_request() } -> std::same_as<MPI_Request&>;
  t.take_completed(status);
  T::has_status;
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
      return range_awaiter<hold>(std::forward<X>(x));
  } else if constexpr (is_persistent_call<type>) {
    if constexpr (!std::is_lvalue_reference_v<X>) {
      static_assert(std::is_lvalue_reference_v<X>,
                    "nampi::task: co_await a persistent call by name (co_await op.start()): its "
                    "value refers to the call's buffers, which a temporary would take along");
      return refused_awaiter<decltype(x.value())>{};
    } else {
      return persistent_awaiter<type>(x);
    }
  } else if constexpr (completes_by_request<type>) {
    return request_awaiter<hold>(std::forward<X>(x));
  } else if constexpr (request_pool_like<type>) {
    if constexpr (!std::is_lvalue_reference_v<X>) {
      static_assert(std::is_lvalue_reference_v<X>, "nampi::task: co_await a request pool by name");
      return refused_awaiter<>{};
    } else {
      return pool_awaiter<type>(x);
    }
  } else {
    static_assert(dependent_false<type>,
                  "nampi::task: co_await takes a nampi::task, a nonblocking call's result (a "
                  "communicator's, a range communicator's, a plugin's), a started persistent or "
                  "partitioned call, or a request pool; nampi's scheduler cannot resume a task "
                  "suspended on anything else");
    return refused_awaiter<>{};
  }
}

}  // namespace nampi::detail::coro
