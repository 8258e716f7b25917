// Scoped epochs of a window (nampi/window.hpp): the object a Window's *_epoch member returns
// started the epoch with one MPI call and ends it with another when it goes out of scope:
//   fence_epoch     MPI_Win_fence ... MPI_Win_fence (collective)
//   lock_epoch      MPI_Win_lock ... MPI_Win_unlock (target_rank)
//   lock_all_epoch  MPI_Win_lock_all ... MPI_Win_unlock_all
//   exposure_epoch  MPI_Win_post ... MPI_Win_wait (group: the ranks that access this window)
//   access_epoch    MPI_Win_start ... MPI_Win_complete (group: the ranks whose windows it accesses)
// The one-sided calls of the epoch are complete when it ends. end() ends it early and reports
// an error as an exception; the destructor does the same, except while another exception
// unwinds the stack (it then ends the epoch and drops its error: that exception is the one
// to report).
#pragma once

#include <exception>
#include <utility>

namespace nampi {

template <typename End>
class [[nodiscard]] window_epoch {
 public:
  explicit window_epoch(End end) : end_(std::move(end)) {}
  window_epoch(window_epoch&& other) noexcept
      : end_(std::move(other.end_)), open_(std::exchange(other.open_, false)) {}
  window_epoch(const window_epoch&) = delete;
  window_epoch& operator=(const window_epoch&) = delete;
  window_epoch& operator=(window_epoch&&) = delete;
  ~window_epoch() noexcept(false) {
    if (!open_) return;
    if (std::uncaught_exceptions() > unwinding_) {
      try {
        end();
      } catch (...) {  // the exception already on its way is the one to report
      }
    } else {
      end();
    }
  }

  // Ends the epoch now (once): its one-sided calls are complete.
  void end() {
    if (std::exchange(open_, false)) end_();
  }
  bool is_open() const noexcept { return open_; }

 private:
  End end_;
  bool open_ = true;
  int unwinding_ = std::uncaught_exceptions();
};

}  // namespace nampi
