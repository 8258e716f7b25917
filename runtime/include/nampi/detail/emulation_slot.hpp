// What an emulated nonblocking or persistent call must keep until it completes
// (or until its persistent request is freed): MPI reads the datatypes, ops and
// arrays of the emulation all along. The result holds it as one more slot, never
// returned; where the MPI has the function the emulation stands in for, the slot
// is empty and costs nothing.
#pragma once

#include <utility>

#include "nampi/detail/owned.hpp"

namespace nampi::detail {

template <bool Emulated, typename State>
class emulation_slot {
 public:
  static constexpr bool returned = false;
  static constexpr int id = -2;  // matches no parameter

  // Keeps `state` with the call, and gives it back to issue the call with.
  State& hold(owned<State> state) {
    state_ = std::move(state);
    return *state_;
  }

 private:
  owned<State> state_;
};

template <typename State>
class emulation_slot<false, State> {
 public:
  static constexpr bool returned = false;
  static constexpr int id = -2;
};

}  // namespace nampi::detail
