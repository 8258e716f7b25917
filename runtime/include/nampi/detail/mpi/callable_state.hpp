// The state of C++ callables with captures behind MPI callbacks that take a user pointer
// (extra_state): keyval copy/delete, generalized request query/free/cancel, data representation
// conversions (spec/mpi/callbacks.yaml: `typed: {callable, state}`).
//
// The generated overload (comm_create_keyval(copy, del), ...) moves its callables into one heap
// object, a `state`, passes that object to MPI as extra_state and the adapters' trampolines
// (callables.hpp) as the callbacks. If the MPI call fails, MPI never saw the state and it is
// freed at once. Otherwise hand_over gives it to its owner:
//
//   - the request, for generalized requests: MPI calls the free callback exactly once, last,
//     and nampi's free trampoline deletes the state after the callable `free` has run;
//   - the process, until MPI_Finalize has returned, for keyvals and data representations. MPI
//     never unregisters a data representation; after MPI_X_free_keyval it still calls delete
//     for each attribute left set, and MPICH (4.0, 5) and Open MPI 4.1 delete those of
//     MPI_COMM_WORLD inside MPI_Finalize after MPI_COMM_SELF's, so even the standard's
//     "MPI_COMM_SELF attributes are deleted first" hook would free the state too early. These
//     states are released at exit (std::atexit, registered with the first of them) if MPI_Finalized
//     then says MPI is done; otherwise (MPI_Finalize still to come, say from a static destructor,
//     or never called) they stay reachable from a global and are never freed, because MPI may still
//     call them.
//
// A trampoline never lets an exception through MPI's C frames: what a callable throws becomes
// the callback's return code (current_error_code), which MPI returns from the call that ran the
// callback (MPI_Comm_dup, MPI_Wait, ...) and nampi turns back into nampi::mpi_error.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/owned.hpp"
#include "nampi/error.hpp"

namespace nampi::mpi::callable {

namespace detail {

// The MPI error code for the exception being handled (call only inside a catch block): an
// mpi_error keeps its code, bad_alloc is MPI_ERR_NO_MEM, anything else MPI_ERR_OTHER.
inline int current_error_code() noexcept {
  try {
    throw;
  } catch (const nampi::mpi_error& e) {
    return e.code();
  } catch (const std::bad_alloc&) {
    return MPI_ERR_NO_MEM;
  } catch (...) {
    return MPI_ERR_OTHER;
  }
}

// Runs a callable inside a trampoline: MPI_SUCCESS, or the code of what it threw.
template <typename Body>
int guarded(Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
    return MPI_SUCCESS;
  } catch (...) {
    return current_error_code();
  }
}

// Any state, as the list of states kept until MPI_Finalize holds them.
class state_base {
 public:
  state_base() = default;
  state_base(const state_base&) = delete;
  state_base& operator=(const state_base&) = delete;
  virtual ~state_base() = default;

  state_base* next_kept = nullptr;
};

// A lock-free stack: hand_over cannot fail (MPI already holds the state) and may run on
// several threads at once.
inline nampi::detail::atomic_cell<state_base*> kept_until_finalize{nullptr};

inline void release_after_finalize() noexcept {
  int finalized = 0;
  if (MPI_Finalized(&finalized) != MPI_SUCCESS || finalized == 0) return;
  state_base* s = kept_until_finalize.exchange(nullptr);
  while (s != nullptr) {
    state_base* next = s->next_kept;
    delete s;
    s = next;
  }
}

inline void keep_until_finalize(state_base* s) noexcept {
  // If atexit fails, the states stay reachable and are never freed.
  static const bool at_exit = std::atexit(&release_after_finalize) == 0;
  (void)at_exit;
  s->next_kept = kept_until_finalize.load();
  while (!kept_until_finalize.compare_exchange(s->next_kept, s)) {
  }
}

}  // namespace detail

// The adapters (callables.hpp) of a state's callables, in parameter order.
template <typename... Adapters>
struct adapters {};

template <typename Adapters, typename... F>
class state;

// The callables of one call, F... made into C callbacks by Adapters... (one each).
template <typename... Adapters, typename... F>
class state<adapters<Adapters...>, F...> final : public detail::state_base {
  static_assert(sizeof...(Adapters) == sizeof...(F));

 public:
  template <typename... G>
  explicit state(std::in_place_t, G&&... g) : functions_(std::forward<G>(g)...) {}

  // A generalized request's free callback deletes the state (see the top of this file).
  static constexpr bool released_by_mpi = (Adapters::releases_state || ...);

  // What MPI passes back to every callback of this state.
  void* extra_state() noexcept { return this; }
  static state& from(void* extra_state) noexcept { return *static_cast<state*>(extra_state); }

  template <std::size_t I>
  auto& function() noexcept {
    return std::get<I>(functions_);
  }

  // The C callback of callable I: its adapter's trampoline, or the C function the caller gave.
  template <std::size_t I>
  auto c_function() noexcept {
    using adapter = std::tuple_element_t<I, std::tuple<Adapters...>>;
    return adapter::template c_function<state, I>(std::get<I>(functions_));
  }

 private:
  std::tuple<F...> functions_;
};

template <typename... Adapters, typename... F>
auto make_state(F&&... f) {
  using type = state<adapters<Adapters...>, std::decay_t<F>...>;
  return nampi::detail::make_owned<type>(std::in_place, std::forward<F>(f)...);
}

// After the MPI call succeeded: MPI holds the state now; see the top of this file for who
// releases it.
template <typename State>
void hand_over(nampi::detail::owned<State> s) noexcept {
  if constexpr (State::released_by_mpi) {
    (void)s.release();
  } else {
    detail::keep_until_finalize(s.release());
  }
}

}  // namespace nampi::mpi::callable
