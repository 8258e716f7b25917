// nampi::Window<T>: an MPI window (one-sided communication) whose memory holds elements of T,
// with every generated call of spec/bindings/windows.yaml as a member (win.put(...),
// win.fence(), ...). Communicators create windows (spec/bindings/window_creation.yaml:
// comm.win_allocate<T>(size(n)), comm.win_create(base(v)), ...); the window frees itself
// (MPI_Win_free, collective: every rank's window must be destroyed in the same order).
// Epochs are scoped objects (nampi/window_epochs.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <utility>

#include "nampi/detail/call_support.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/generated/windows.hpp"
#include "nampi/generated/windows_definitions.hpp"
#include "nampi/window_epochs.hpp"

namespace nampi {
namespace detail {

// An attribute of a window that MPI always has (MPI_WIN_BASE, MPI_WIN_SIZE, ...).
template <typename Value>
Value window_attribute(MPI_Win win, int key) {
  void* value = nullptr;
  int found = 0;
  call_mpi("MPI_Win_get_attr", MPI_Win_get_attr, win, key, &value, &found);
  NAMPI_CHECK(found != 0, "MPI_Win_get_attr: the window has no attribute %d", key);
  if constexpr (std::is_pointer_v<Value>)
    return static_cast<Value>(value);
  else
    return static_cast<Value>(*static_cast<MPI_Aint*>(value));
}

}  // namespace detail

template <typename T>
class Window : public generated::windows_calls<Window<T>> {
 public:
  using element_type = T;

  // A null window (what a failed creation leaves); no call can run on it.
  Window() noexcept = default;
  Window(Window&&) noexcept = default;
  Window& operator=(Window&&) noexcept = default;
  ~Window() = default;  // owner_ frees the window (MPI_Win_free)

  // The MPI window, for C libraries and MPI calls of your own (the window still owns it).
  MPI_Win mpi_handle() const noexcept { return owner_.get(); }
  MPI_Win mpi_window() const noexcept { return owner_.get(); }  // the same, by its older name
  bool is_null() const noexcept { return owner_.is_null(); }

  // The memory this rank exposes in the window: what win_allocate allocated, or the buffer
  // win_create was given; empty for a dynamic window (attach memory with MPI_Win_attach).
  std::span<T> local() const noexcept { return {base_, count_}; }

  // Rank `rank`'s part of a shared-memory window (comm.win_allocate_shared<T>), which this
  // process can load and store directly (MPI_Win_shared_query); order the accesses with the
  // window's epochs, or sync() and a barrier. Written by hand: MPI returns its address, size
  // and unit, of which nampi makes one span.
  std::span<T> shared_query(int rank) const {
    MPI_Aint bytes = 0;
    int unit = 0;
    T* base = nullptr;
    detail::call_mpi("MPI_Win_shared_query", MPI_Win_shared_query, owner_.get(), rank, &bytes,
                     &unit, static_cast<void*>(&base));
    return {base, static_cast<std::size_t>(bytes) / sizeof(T)};
  }

  // Scoped epochs (nampi/window_epochs.hpp): each takes the named parameters of the call
  // that starts the epoch, and ends it when it goes out of scope.
  //   auto epoch = win.lock_epoch(target_rank(1), lock_type(MPI_LOCK_SHARED));
  template <typename... Args>
  auto fence_epoch(Args&&... args) const {
    this->fence(std::forward<Args>(args)...);
    return window_epoch([this] { this->fence(); });
  }
  template <typename... Args>
  auto lock_epoch(Args&&... args) const {
    if constexpr (detail::has_param<param_id::target_rank, Args...>) {
      const int target = static_cast<int>(detail::get_param<param_id::target_rank>(args...).value);
      this->lock(std::forward<Args>(args)...);
      return window_epoch([this, target] { this->unlock(params::target_rank(target)); });
    } else {
      return this->lock(std::forward<Args>(args)...);  // its check names the missing target_rank
    }
  }
  template <typename... Args>
  auto lock_all_epoch(Args&&... args) const {
    this->lock_all(std::forward<Args>(args)...);
    return window_epoch([this] { this->unlock_all(); });
  }
  template <typename... Args>
  auto exposure_epoch(Args&&... args) const {
    this->post(std::forward<Args>(args)...);
    return window_epoch([this] { this->wait(); });
  }
  template <typename... Args>
  auto access_epoch(Args&&... args) const {
    this->start(std::forward<Args>(args)...);
    return window_epoch([this] { this->complete(); });
  }

  // Every form of the windows group: MPI has them all.
  template <typename Call>
  static constexpr bool provides = true;

  detail::window_context call_context(const char* call) const noexcept {
    return {call, owner_.get()};
  }

  // Owns `win` (generated creation calls hand it over, slot.hpp: to_mpi_new_win): reports
  // errors as exceptions (MPI_Win_set_errhandler, as nampi does on its communicators) and
  // reads where its local memory is and how large (MPI_Win_get_attr: MPI_WIN_BASE, _SIZE).
  void adopt(MPI_Win win) {
    owner_ = mpi::unique_win(mpi::win(win));
    base_ = nullptr;
    count_ = 0;
    if (win == MPI_WIN_NULL) return;
    detail::call_mpi("MPI_Win_set_errhandler", MPI_Win_set_errhandler, win, MPI_ERRORS_RETURN);
    base_ = detail::window_attribute<T*>(win, MPI_WIN_BASE);
    const auto bytes = detail::window_attribute<MPI_Aint>(win, MPI_WIN_SIZE);
    count_ = static_cast<std::size_t>(bytes) / sizeof(T);
  }

  // Where MPI_Win_allocate writes the base address of the memory it allocated (adopt()
  // reads it again from the window's attributes).
  void* base_address() noexcept { return &allocated_base_; }

 private:
  mpi::unique_win owner_;
  T* base_ = nullptr;
  std::size_t count_ = 0;
  void* allocated_base_ = nullptr;
};

}  // namespace nampi
