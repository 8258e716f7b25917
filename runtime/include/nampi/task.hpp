// Coroutines: nampi::task<T>, co_await on nonblocking calls, and many tasks progressed by one
// loop.
//
//   nampi::task<double> step(nampi::Communicator& comm, std::vector<double>& x) {
//     auto halo = comm.isendrecv(send_buf(edge(x)), dest(right), recv_buf(ghost), source(left));
//     interior_update(x);            // overlaps with the exchange
//     co_await halo;                 // suspends; resumed when the request has completed
//     double local = boundary_update(x, ghost);
//     co_return co_await comm.iallreduce_single(send_buf(local), op(std::plus<>{}));
//   }
//   auto [a, b] = nampi::run(comm, step(comm, x), step(comm, y));
//
// A task is lazy (it starts when run() or an awaiting task starts it) and move-only; an
// exception it throws reaches whoever awaits it (run() rethrows the first one, after every
// task has ended). co_await takes (detail/coroutine/awaitables.hpp) another task, any
// nonblocking call's result (the value is what its wait() returns, with the buffers it owned),
// a started persistent or partitioned call, and results with test() (range communicators'
// and plugins'); anything else is a compile error.
//
// The scheduler (detail/coroutine/scheduler.hpp) runs the ready tasks, then completes what it
// can with one MPI_Waitsome over the requests of all waiting tasks: no task tests its own
// request, so n tasks cost one MPI call per round, not n. One scheduler serves one thread
// (with MPI_THREAD_MULTIPLE, each thread runs its own run()).
//
// A task that has not started is cancelled by destroying it: none of it runs. A task must
// not outlive the communicators it was made with (its parameters): freeing one while a task
// made with it has not finished ends the program with a message that says so
// (nampi/detail/own_context.hpp).
#pragma once

#include <mpi.h>

#include <array>
#include <concepts>
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/coroutine/awaitables.hpp"
#include "nampi/detail/coroutine/scheduler.hpp"
#include "nampi/detail/coroutine/strand.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/error.hpp"
#include "nampi/nampi.hpp"  // the whole API: `#include <nampi/task.hpp>` alone is enough

namespace nampi {

template <typename T = void>
class task;

// A finished task<void>'s value in the tuple of run() and when_all().
struct nothing {
  friend bool operator==(nothing, nothing) = default;
};

namespace detail::coro {

struct task_access;

template <typename T>
struct value_of {
  using type = T;
};
template <>
struct value_of<void> {
  using type = nothing;
};
template <typename T>
using value_of_t = typename value_of<T>::type;

template <typename T>
inline constexpr bool is_task = false;
template <typename T>
inline constexpr bool is_task<task<T>> = true;

// run()'s communicator: a null one has no calls to make.
template <typename Comm>
void check_communicator(const Comm& comm) {
  if constexpr (requires { comm.mpi_handle(); })
    NAMPI_CHECK(comm.mpi_handle() != MPI_COMM_NULL, "%s",
                "nampi::run: the communicator is MPI_COMM_NULL (moved from, or freed)");
}

// The communicators a task was made with (own contexts of its parameters): each holds the
// context's task count up while the task has not finished.
class task_leases {
 public:
  task_leases() noexcept = default;
  template <typename... Params>
  explicit task_leases(Params&... params) noexcept {
    (add(params), ...);
  }
  task_leases(const task_leases&) = delete;
  task_leases& operator=(const task_leases&) = delete;
  ~task_leases() { release(); }

  void release() noexcept {
    for (std::size_t i = 0; i < count_; ++i) held_[i]->release_task();
    count_ = 0;
  }

 private:
  template <typename Param>
  void add(Param& param) noexcept {
    if constexpr (requires {
                    { param.own_context() } -> std::convertible_to<const own_context*>;
                  }) {
      own_context* context = param.own_context();
      if (context == nullptr || count_ == capacity) return;
      for (std::size_t i = 0; i < count_; ++i)
        if (held_[i] == context) return;
      context->hold_task();
      held_[count_++] = context;
    }
  }

  static constexpr std::size_t capacity = 4;  // communicator parameters of one task, checked
  own_context* held_[capacity] = {};
  std::size_t count_ = 0;
};

// What every task's promise holds: where it runs, who resumes when it ends, its exception.
class promise_base {
 public:
  // The coroutine's parameters: the communicators among them are leased (task_leases).
  template <typename... Params>
  explicit promise_base(Params&... params) noexcept : leases_(params...) {}
  promise_base() noexcept = default;

  std::suspend_always initial_suspend() const noexcept { return {}; }  // lazy

  // Ending: the awaiting task goes on, or the join learns of one more finished task.
  struct final_awaiter {
    bool await_ready() const noexcept { return false; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> ended) const noexcept {
      promise_base& p = ended.promise();
      p.leases_.release();
      if (p.continuation) return p.continuation;  // on the same strand
      if (p.join_ != nullptr && --p.join_->remaining == 0 && p.join_->waiter) {
        // The when_all's task goes on, with what its parts claimed (strand.hpp).
        p.scheduler->claims().pass_to(*p.join_->waiter_strand);
        running_strand = p.join_->waiter_strand;
        return p.join_->waiter;
      }
      return std::noop_coroutine();
    }
    void await_resume() const noexcept {}
  };
  final_awaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { error_ = std::current_exception(); }

  template <typename X>
  decltype(auto) await_transform(X&& x) {
    if constexpr (is_task<std::remove_cvref_t<X>> || requires { x.is_nampi_task_awaiter; })
      return std::forward<X>(x);  // its own operator co_await, or an awaiter of this file
    else
      return awaitable_for(std::forward<X>(x));
  }

  scheduler_core* scheduler = nullptr;
  strand* running = nullptr;  // the strand it runs on
  std::coroutine_handle<> continuation;

  void start_in(scheduler_core& s, join* j, strand* on) noexcept {
    scheduler = &s;
    join_ = j;
    running = on;
  }
  void rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  join* join_ = nullptr;
  std::exception_ptr error_;
  task_leases leases_;
};

template <typename T>
class promise final : public promise_base {
 public:
  using promise_base::promise_base;
  task<T> get_return_object() noexcept;
  template <typename U>
    requires std::convertible_to<U&&, T>
  void return_value(U&& value) {
    value_.emplace(std::forward<U>(value));
  }
  T take() {
    rethrow_if_failed();
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
};

template <>
class promise<void> final : public promise_base {
 public:
  using promise_base::promise_base;
  task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void take() const { rethrow_if_failed(); }
};

template <typename T>
value_of_t<T> take_value(promise<T>& p) {
  if constexpr (std::is_void_v<T>) {
    p.take();
    return nothing{};
  } else {
    return p.take();
  }
}

}  // namespace detail::coro

template <typename T>
class [[nodiscard]] task {
  static_assert(!std::is_reference_v<T>, "nampi::task<T>: T is a value (a task owns its result)");

 public:
  using promise_type = detail::coro::promise<T>;
  using value_type = T;

  task() noexcept = default;
  task(task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  task& operator=(task&& other) noexcept {
    if (this != &other) {
      destroy();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  task(const task&) = delete;
  task& operator=(const task&) = delete;
  // A task that has not started is cancelled here; one that has is only destroyed by its
  // owner once it has ended (run(), when_all and co_await keep it until then).
  ~task() { destroy(); }

  // Whether it holds a coroutine (not moved from), and whether that has ended.
  bool valid() const noexcept { return static_cast<bool>(h_); }
  bool done() const noexcept { return h_ && h_.done(); }

  // co_await on a task (in a task): runs it as a part of the awaiting one, in its scheduler.
  auto operator co_await() && noexcept { return awaiter{std::exchange(h_, {})}; }
  auto operator co_await() & noexcept { return awaiter{std::exchange(h_, {})}; }

 private:
  friend class detail::coro::promise<T>;
  friend struct detail::coro::task_access;

  using handle = std::coroutine_handle<promise_type>;
  explicit task(handle h) noexcept : h_(h) {}

  void destroy() noexcept {
    if (h_) std::exchange(h_, {}).destroy();
  }

  struct awaiter {
    static constexpr bool is_nampi_task_awaiter = true;
    handle child;

    ~awaiter() {
      if (child) child.destroy();
    }
    bool await_ready() const noexcept { return !child; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> parent) noexcept {
      child.promise().scheduler = parent.promise().scheduler;
      child.promise().running = parent.promise().running;
      child.promise().continuation = parent;
      return child;
    }
    T await_resume() {
      NAMPI_CHECK(child, "%s", "co_await on a nampi::task that was moved from or awaited before");
      return child.promise().take();
    }
  };

  handle h_;
};

namespace detail::coro {

// What when_all and the scheduler need of a task: its coroutine.
struct task_access {
  template <typename T>
  static std::coroutine_handle<promise<T>> handle(task<T>& t) noexcept {
    return t.h_;
  }
  // The task to start: its coroutine, its promise's common part (null if moved from).
  struct entry {
    std::coroutine_handle<> coroutine;
    promise_base* promise;
  };
  template <typename T>
  static entry start_entry(task<T>& t) noexcept {
    return {t.h_, t.h_ ? static_cast<promise_base*>(&t.h_.promise()) : nullptr};
  }
};

template <typename T>
task<T> promise<T>::get_return_object() noexcept {
  return task<T>(std::coroutine_handle<promise<T>>::from_promise(*this));
}
inline task<void> promise<void>::get_return_object() noexcept {
  return task<void>(std::coroutine_handle<promise<void>>::from_promise(*this));
}

// Starts tasks together (run()'s, or a when_all's parts: the children of `parent`), in order,
// each on a strand of its own (kept in `strands`, which must stay where it is until they end);
// `all` learns when each ends.
inline void start_together(scheduler_core& s, join& all, std::vector<strand>& strands,
                           strand* parent, const task_access::entry* entries, std::size_t n) {
  strands.reserve(n);  // no reallocation below: the promises point at their strands
  for (std::size_t i = 0; i < n; ++i) {
    strand& on = strands.emplace_back(s.claims(), i, parent);
    entries[i].promise->start_in(s, &all, &on);
    s.make_ready({entries[i].coroutine, &on});
  }
}

// co_await fork<N>{...}: starts the tasks in the awaiting task's scheduler; resumes it when
// the last of them has ended.
template <std::size_t N>
struct fork {
  static constexpr bool is_nampi_task_awaiter = true;
  std::array<task_access::entry, N> entries;
  join all{N, {}, nullptr};
  std::vector<strand> parts{};

  bool await_ready() const noexcept { return N == 0; }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> waiter) {
    all.waiter = waiter;
    all.waiter_strand = waiter.promise().running;
    start_together(*waiter.promise().scheduler, all, parts, all.waiter_strand, entries.data(), N);
  }
  void await_resume() const noexcept {}
};
}  // namespace detail::coro

// Runs the tasks as parts of the awaiting task, all at once (in one scheduler), and gives
// their values when the last has ended; the first exception, if any, after all have ended.
template <typename... T>
auto when_all(task<T>... tasks) -> task<std::tuple<detail::coro::value_of_t<T>...>> {
  using access = detail::coro::task_access;
  NAMPI_CHECK((tasks.valid() && ...), "%s", "nampi::when_all: a task was moved from");
  co_await detail::coro::fork<sizeof...(T)>{{access::start_entry(tasks)...}};
  co_return std::tuple<detail::coro::value_of_t<T>...>(
      detail::coro::take_value(access::handle(tasks).promise())...);
}

// Runs tasks to their end: one loop for all (see above). Reusable: its arrays stay allocated
// from one run to the next.
class scheduler {
 public:
  scheduler() = default;

  template <typename... T>
  std::tuple<detail::coro::value_of_t<T>...> run(task<T>... tasks) {
    using access = detail::coro::task_access;
    const access::entry entries[] = {access::start_entry(tasks)..., {}};
    start_and_wait(entries, sizeof...(T));
    return std::tuple<detail::coro::value_of_t<T>...>(
        detail::coro::take_value(access::handle(tasks).promise())...);
  }

  template <typename T>
  auto run(std::vector<task<T>> tasks) {
    using access = detail::coro::task_access;
    std::vector<access::entry> entries;
    entries.reserve(tasks.size());
    for (task<T>& t : tasks) entries.push_back(access::start_entry(t));
    start_and_wait(entries.data(), entries.size());
    // Every task has ended; the first exception is thrown after all did.
    for (task<T>& t : tasks) access::handle(t).promise().rethrow_if_failed();
    if constexpr (std::is_void_v<T>) {
      return;
    } else {
      std::vector<T> values;
      values.reserve(tasks.size());
      for (task<T>& t : tasks) values.push_back(access::handle(t).promise().take());
      return values;
    }
  }

 private:
  // Starts each task (in order, each until it first waits) and runs them all to their end.
  void start_and_wait(const detail::coro::task_access::entry* entries, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      NAMPI_CHECK(entries[i].promise != nullptr, "nampi::run: task %zu was moved from", i + 1);
    detail::coro::join all{n, {}, nullptr};
    std::vector<detail::coro::strand> strands;
    detail::coro::start_together(core_, all, strands, nullptr, entries, n);
    try {
      core_.run(all);
    } catch (...) {
      core_.clear();  // the tasks are destroyed with their owners: their results wait
      throw;
    }
    core_.claims().clear();
  }

  detail::coro::scheduler_core core_;
};

// nampi::run(comm, t1, t2, ...): runs the tasks, made with `comm`, to their end and returns
// their values as a tuple (`auto [x, y] = nampi::run(comm, f(), g());`); a task<void>'s is
// nampi::nothing.
template <typename Comm, typename... T>
std::tuple<detail::coro::value_of_t<T>...> run(const Comm& comm, task<T>... tasks) {
  detail::coro::check_communicator(comm);
  scheduler s;
  return s.run(std::move(tasks)...);
}

// nampi::run(comm, tasks): a vector of tasks of one type; their values in the same order
// (nothing for task<void>).
template <typename Comm, typename T>
auto run(const Comm& comm, std::vector<task<T>> tasks) {
  detail::coro::check_communicator(comm);
  scheduler s;
  return s.run(std::move(tasks));
}

}  // namespace nampi
