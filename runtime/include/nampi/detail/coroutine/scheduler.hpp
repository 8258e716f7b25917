// The loop that progresses nampi::tasks (nampi/task.hpp): tasks ready to run are resumed in
// the order they became ready; when none is, one MPI_Waitsome over the requests of every task
// that waits completes what it can, and the tasks whose requests completed become ready. No
// task tests its own request: however many tasks wait, each round is one MPI call.
//
// What waits on several requests at once (a range communicator's round of messages, a request
// pool) joins the same MPI_Waitsome as a request_group, and goes on once all of them completed.
// Only what has no request to wait on (a range algorithm looking for a message with
// MPI_Iprobe) is polled once per round, and the round's MPI call is then MPI_Testsome, so that
// a poll is never held up by a blocking wait.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <coroutine>
#include <cstddef>
#include <utility>
#include <vector>

#include "nampi/detail/coroutine/strand.hpp"
#include "nampi/error.hpp"

namespace nampi::detail::coro {

// Tasks started together (by run(), or by when_all): the join ends when the last of them
// finishes; then `waiter` (when_all's task, on its strand) resumes, or run()'s loop returns.
struct join {
  std::size_t remaining = 0;
  std::coroutine_handle<> waiter;
  strand* waiter_strand = nullptr;
};

// A task to resume, and the strand it runs on (strand.hpp).
struct resumable {
  std::coroutine_handle<> task;
  strand* on;
};

// Something awaited without an MPI request: `poll(awaiter)` tests it once; true when the entry
// is done with (the awaiter has made its task ready, or waits on requests now).
struct poll_entry {
  bool (*poll)(void*) noexcept;
  void* awaiter;
};

// Requests awaited together: once the last of them has completed, `advance(awaiter)` goes on
// (it waits on new requests, or makes its task ready).
struct request_group {
  std::size_t pending = 0;
  void (*advance)(void*) noexcept = nullptr;
  void* awaiter = nullptr;
};

class scheduler_core {
 public:
  scheduler_core() = default;
  scheduler_core(const scheduler_core&) = delete;
  scheduler_core& operator=(const scheduler_core&) = delete;

  // `task` waits for the MPI request `*origin` (the awaited result's own): the loop waits on a
  // copy, writes back what MPI left there (MPI_REQUEST_NULL, or an inactive persistent
  // request), and `*status` (unless MPI_STATUS_IGNORE) gets MPI's status.
  void wait_for(MPI_Request* origin, MPI_Status* status, resumable task) {
    add(origin, status, task, nullptr);
  }
  // The same for one request of `group` (its `pending` counts them).
  void wait_for(MPI_Request* origin, MPI_Status* status, request_group& group) {
    add(origin, status, {}, &group);
  }
  void poll_for(poll_entry entry) { polls_.push_back(entry); }
  void make_ready(resumable task) { ready_.push_back(task); }

  // The communicators' collectives claimed by the strands of this run.
  collective_claims& claims() noexcept { return claims_; }

  // Runs tasks until `until` ends.
  void run(const join& until) {
    // A run inside a task (a nested scheduler) gives the thread back to that task's strand.
    struct restore {
      strand* before = running_strand;
      ~restore() { running_strand = before; }
    } restore_strand;
    unsigned idle_rounds = 0;
    while (until.remaining != 0) {
      if (!ready_.empty()) {
        resume_ready();
        idle_rounds = 0;
      } else if (!requests_.empty() || !polls_.empty()) {
        // Only polling (no MPI request completes for a while): give the core away now and
        // then, as MPI's own waits do, so that an oversubscribed rank being waited for runs.
        if (!complete_some() && ++idle_rounds % 64 == 0) sched_yield();
      } else {
        throw_usage_error("%s",
                          "nampi::run: tasks are suspended on something that is not a nampi "
                          "call, task or request, so nothing can resume them");
      }
    }
  }

  // Forgets what waits (the tasks that waited are being destroyed: their results complete
  // their own requests).
  void clear() noexcept {
    ready_.clear();
    requests_.clear();
    waiting_.clear();
    polls_.clear();
    advancing_.clear();
    statuses_wanted_ = 0;
    claims_.clear();
  }

 private:
  struct waiting_task {
    resumable task;        // resumed when the request completes, unless
    request_group* group;  // it is one of a group's (else nullptr)
    MPI_Request* origin;
    MPI_Status* status;
  };

  void add(MPI_Request* origin, MPI_Status* status, resumable task, request_group* group) {
    requests_.push_back(*origin);
    waiting_.push_back({task, group, origin, status});
    if (status != MPI_STATUS_IGNORE) ++statuses_wanted_;
  }

  void resume_ready() {
    running_.swap(ready_);  // a resumed task may make others ready: they run next round
    for (const resumable& r : running_) {
      running_strand = r.on;
      r.task.resume();
    }
    running_strand = nullptr;
    running_.clear();
  }

  // One MPI_Waitsome (MPI_Testsome while something is polled) and the polls; whether
  // anything completed.
  bool complete_some() {
    bool progressed = false;
    if (!requests_.empty()) progressed = complete_requests(polls_.empty());
    for (std::size_t i = 0; i < polls_.size();) {
      if (polls_[i].poll(polls_[i].awaiter)) {
        polls_[i] = polls_.back();
        polls_.pop_back();
        progressed = true;
      } else {
        ++i;
      }
    }
    return progressed;
  }

  bool complete_requests(bool block) {
    const int n = static_cast<int>(requests_.size());
    indices_.resize(requests_.size());
    statuses_.resize(statuses_wanted_ != 0 ? requests_.size() : 0);
    MPI_Status* statuses = statuses_wanted_ != 0 ? statuses_.data() : MPI_STATUSES_IGNORE;
    int completed = 0;
    const int code = block
                         ? MPI_Waitsome(n, requests_.data(), &completed, indices_.data(), statuses)
                         : MPI_Testsome(n, requests_.data(), &completed, indices_.data(), statuses);
    if (code != MPI_SUCCESS) {
      // The results complete (or fail) their own requests when their tasks are destroyed:
      // they get back whatever MPI left in the copies.
      for (std::size_t i = 0; i < requests_.size(); ++i) *waiting_[i].origin = requests_[i];
      throw_mpi_error(block ? "MPI_Waitsome" : "MPI_Testsome", code);
    }
    if (completed == MPI_UNDEFINED) {  // none active: cannot be (each one waited for is)
      completed = n;
      for (int i = 0; i < n; ++i) indices_[static_cast<std::size_t>(i)] = i;
      statuses = MPI_STATUSES_IGNORE;
    }
    if (completed == 0) return false;
    const auto n_done = static_cast<std::size_t>(completed);
    for (std::size_t k = 0; k < n_done; ++k) {
      const auto i = static_cast<std::size_t>(indices_[k]);
      const waiting_task& w = waiting_[i];
      *w.origin = requests_[i];
      if (w.status != MPI_STATUS_IGNORE) {
        if (statuses != MPI_STATUSES_IGNORE) *w.status = statuses_[k];
        --statuses_wanted_;
      }
      if (w.group == nullptr)
        ready_.push_back(w.task);
      else if (--w.group->pending == 0)
        advancing_.push_back(w.group);
    }
    // Out of the arrays, largest index first, each replaced by the last entry (which is then
    // never a completed one): O(completed), not O(waiting). MPICH and Open MPI give the
    // indices in ascending order; the standard does not promise it, so others are sorted.
    bool ascending = true;
    for (std::size_t k = 1; k < n_done; ++k) ascending = ascending && indices_[k - 1] < indices_[k];
    if (!ascending)
      for (std::size_t k = 1; k < n_done; ++k)
        for (std::size_t j = k; j > 0 && indices_[j - 1] > indices_[j]; --j)
          std::swap(indices_[j - 1], indices_[j]);
    for (std::size_t k = n_done; k-- > 0;) {
      const auto i = static_cast<std::size_t>(indices_[k]);
      requests_[i] = requests_.back();
      waiting_[i] = waiting_.back();
      requests_.pop_back();
      waiting_.pop_back();
    }
    // Groups go on once the arrays are consistent again: they may wait on new requests.
    for (request_group* group : advancing_) group->advance(group->awaiter);
    advancing_.clear();
    return true;
  }

  std::vector<resumable> ready_, running_;
  std::vector<MPI_Request> requests_;  // MPI's array: copies of the awaited requests
  std::vector<waiting_task> waiting_;  // waiting_[i] waits for requests_[i]
  std::vector<poll_entry> polls_;
  std::vector<request_group*> advancing_;
  std::vector<int> indices_;
  std::vector<MPI_Status> statuses_;
  std::size_t statuses_wanted_ = 0;
  collective_claims claims_;
};

}  // namespace nampi::detail::coro
