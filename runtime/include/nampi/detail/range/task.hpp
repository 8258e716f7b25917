// A range communicator's call as a C++20 coroutine (a range_task): the algorithm reads like
// blocking code, and each `co_await` on a round of messages suspends it until they complete.
// A blocking call drives it to the end at once; a nonblocking call's result drives it from
// wait() and test() (range/request.hpp). So each algorithm is written once for both.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "nampi/detail/large_count.hpp"
#include "nampi/detail/recycled_blocks.hpp"
#include "nampi/detail/request_list.hpp"
#include "nampi/detail/scratch_array.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

// The messages of one step of an algorithm, all posted at once; `co_await round` resumes
// the algorithm when every one of them has completed. A round can be reused after that.
class range_round {
 public:
  explicit range_round(MPI_Comm comm) noexcept : comm_(comm) {}
  range_round(const range_round&) = delete;
  range_round& operator=(const range_round&) = delete;
  // Left early (an exception in the algorithm): MPI may still use the algorithm's buffers,
  // so the round's messages complete first.
  ~range_round() {
    if (!requests_.empty())
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

  // Any count: above INT_MAX as one element of a derived datatype, which MPI keeps while
  // the message needs it.
  void send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag) {
    const large_count_type t(count, type);
    call_mpi("MPI_Isend", MPI_Isend, buf, t.count(), t.type(), dest, tag, comm_, next());
  }
  // `status`, if given, is written when the round completes.
  void recv(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
            MPI_Status* status = MPI_STATUS_IGNORE) {
    const large_count_type t(count, type);
    if (status != MPI_STATUS_IGNORE) {
      status_ = status;
      status_index_ = requests_.size();
    }
    call_mpi("MPI_Irecv", MPI_Irecv, buf, t.count(), t.type(), source, tag, comm_, next());
  }

  // Whether all messages completed: waits for them (block) or tests once. (A round completed
  // elsewhere, by a nampi::task's scheduler, has nothing left: no MPI call.)
  bool complete(bool block) {
    if (requests_.empty()) return true;
    if (status_ == MPI_STATUS_IGNORE) {
      if (!complete_all(block, MPI_STATUSES_IGNORE)) return false;
    } else {
      scratch_array<MPI_Status> statuses(requests_.size());
      if (!complete_all(block, statuses.data())) return false;
      *status_ = statuses.data()[status_index_];
    }
    requests_.clear();
    status_ = MPI_STATUS_IGNORE;
    return true;
  }

  // For a nampi::task's scheduler (coroutine/awaitables.hpp), which completes the round's
  // requests among others': request i, and where its status goes.
  std::size_t size() const noexcept { return requests_.size(); }
  MPI_Request* request(std::size_t i) noexcept { return &requests_[i]; }
  MPI_Status* status_of(std::size_t i) const noexcept {
    return i == status_index_ ? status_ : MPI_STATUS_IGNORE;
  }
  // Once the scheduler completed every request (and wrote the status): the round is over.
  void completed_elsewhere() noexcept {
    requests_.clear();
    status_ = MPI_STATUS_IGNORE;
  }

  // co_await: suspends unless there is nothing to wait for.
  bool await_ready() const noexcept { return requests_.empty(); }
  template <typename Promise>
  void await_suspend(std::coroutine_handle<Promise> algorithm) const noexcept {
    algorithm.promise().round = const_cast<range_round*>(this);
  }
  void await_resume() const noexcept {}

 private:
  MPI_Request* next() { return requests_.push(); }

  // MPI_Waitall (block) or one MPI_Testall of the round's requests: whether they completed.
  bool complete_all(bool block, MPI_Status* statuses) {
    const int n = static_cast<int>(requests_.size());
    if (block) {
      call_mpi("MPI_Waitall", MPI_Waitall, n, requests_.data(), statuses);
      return true;
    }
    int done = 0;
    call_mpi("MPI_Testall", MPI_Testall, n, requests_.data(), &done, statuses);
    return done != 0;
  }

  MPI_Comm comm_;
  request_list requests_;
  MPI_Status* status_ = MPI_STATUS_IGNORE;
  std::size_t status_index_ = 0;
};

// `co_await range_poll{}`: suspends once without a message to wait for (an algorithm that
// looks for a message with MPI_Iprobe: test() runs one look, wait() looks until found).
struct range_poll {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

// An algorithm: a coroutine that returns MPI's error code. `co_await` on another range_task
// runs that one as a part of this one and gives its code.
class [[nodiscard]] range_task {
 public:
  // Its frame comes from the thread's recycled blocks: a loop of calls allocates none.
  struct promise_type : recycled_allocation {
    range_round* round = nullptr;              // the round it waits for, or
    std::coroutine_handle<promise_type> part;  // the part it waits for, or neither: a poll
    int code = MPI_SUCCESS;
    std::exception_ptr error;

    // Not an aggregate: the compiler would otherwise try to make the promise from the
    // coroutine's own arguments.
    promise_type() noexcept = default;

    range_task get_return_object() noexcept {
      return range_task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_never initial_suspend() const noexcept { return {}; }  // starts at once
    std::suspend_always final_suspend() const noexcept { return {}; }   // the task frees it
    void return_value(int c) noexcept { code = c; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  using handle = std::coroutine_handle<promise_type>;

  range_task() noexcept = default;
  range_task(range_task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  range_task& operator=(range_task&& other) noexcept {
    if (this != &other) {
      finish_and_free();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  ~range_task() { finish_and_free(); }

  bool holds() const noexcept { return static_cast<bool>(h_); }
  bool done() const noexcept { return !h_ || h_.done(); }

  // Drives the algorithm on: to its end (block), or until what it waits for has not yet
  // completed. Whether it has ended.
  bool progress(bool block) { return progress(h_, block); }

  // Its error code, once ended (an exception it raised is thrown here).
  int result() const {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().code;
  }

  // The round of messages the algorithm waits for now, in it or in the part it runs; nullptr
  // when it has ended or looks for a message (a poll).
  range_round* waiting_round() const noexcept {
    handle h = h_;
    while (h && !h.done() && h.promise().part) h = h.promise().part;
    return h && !h.done() ? h.promise().round : nullptr;
  }

  // A blocking call: the algorithm to its end.
  int run() {
    progress(true);
    return result();
  }

  // co_await part: the part runs within the awaiting algorithm.
  bool await_ready() const noexcept { return done(); }
  void await_suspend(handle whole) const noexcept { whole.promise().part = h_; }
  int await_resume() const { return result(); }

 private:
  explicit range_task(handle h) noexcept : h_(h) {}

  static constexpr unsigned polls_before_yield = 64;

  static bool progress(handle h, bool block) {
    bool looked = false;
    unsigned polls = 0;
    while (h && !h.done()) {
      promise_type& p = h.promise();
      if (p.part) {
        if (!progress(p.part, block)) return false;
        p.part = {};
      } else if (p.round != nullptr) {
        if (!p.round->complete(block)) return false;
        p.round = nullptr;
      } else if (!block && looked) {  // a poll: test() looks once
        return false;
      } else {
        // wait() looks until found; now and then it gives the core away, as MPI's own
        // blocking calls do, so that an oversubscribed rank it waits for can run.
        if (looked && ++polls % polls_before_yield == 0) sched_yield();
        looked = true;
      }
      h.resume();
    }
    return true;
  }

  // A frame freed while its messages are pending would leave MPI writing freed memory:
  // it completes first (a pending result's own destructor has done so already).
  void finish_and_free() noexcept {
    if (!h_) return;
    if (!h_.done()) [[unlikely]]
      finish_pending();
    h_.destroy();
    h_ = {};
  }
  [[gnu::noinline, gnu::cold]] void finish_pending() noexcept {
    try {
      progress(true);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nampi: a range call failed while being destroyed: %s\n", e.what());
      std::terminate();
    }
  }

  handle h_;
};

}  // namespace nampi::detail
