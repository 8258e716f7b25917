// A nonblocking call's request on a range communicator: the call's algorithm (a range_task,
// range/task.hpp) in place of an MPI request. The call's result drives it: wait() to its end,
// test() as far as the messages that have arrived allow. Nothing else does: a range's
// nonblocking call progresses only within wait() and test() of its result (RBC's rule).
#pragma once

#include <mpi.h>

#include <utility>

#include "nampi/detail/own_context.hpp"
#include "nampi/detail/range/task.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

class range_request {
 public:
  // Used by the backend's nonblocking functions: the algorithm, started. Its code if it
  // ended at once with an error (a bad root: MPI reports such errors when the call starts).
  // A collective's registration at its context (range/collective_start.hpp) ends with it.
  int start(const char* function, range_task task, collective_in_flight in_flight = {}) {
    function_ = function;
    task_ = std::move(task);
    in_flight_ = std::move(in_flight);
    return task_.done() ? task_.result() : MPI_SUCCESS;
  }

  // Where a receive's algorithm writes the status wait() and test() hand back.
  MPI_Status* status() noexcept { return &status_; }

  bool pending() const noexcept { return task_.holds(); }

  // The round of messages its algorithm waits for now (range/task.hpp), or nullptr.
  range_round* waiting_round() const noexcept { return task_.waiting_round(); }

  // Completes the call; `out` (or MPI_STATUS_IGNORE) gets the receive's status.
  void wait(MPI_Status* out) {
    task_.progress(true);
    finish(out);
  }
  bool test(MPI_Status* out) {
    if (!task_.progress(false)) return false;
    finish(out);
    return true;
  }

 private:
  void finish(MPI_Status* out) {
    if (!task_.holds()) return;  // completed before: nothing more to report
    const range_task ended = std::move(task_);
    in_flight_.end();
    const int code = ended.result();
    if (code != MPI_SUCCESS) throw_mpi_error(function_, code);
    if (out != MPI_STATUS_IGNORE) *out = status_;
  }

  const char* function_ = "";
  range_task task_;
  MPI_Status status_{};
  collective_in_flight in_flight_;
};

}  // namespace nampi::detail
