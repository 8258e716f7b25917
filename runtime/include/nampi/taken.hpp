// Whether a call takes each argument it was given: one check per call form against the
// parameters it takes, and one diagnostic per parameter (generated/parameters.hpp).
//
// A call form's tag (nampi::call::<name>, generated beside the call) says which parameters
// it takes: `template <auto Id> static constexpr bool takes`. The diagnostic of the first
// argument it does not take fails a static_assert whose message names the parameter and
// whose condition names the call: GCC prints
//   error: static assertion failed: nampi: this call does not take parameter 'root'
//   note: 'nampi::call::allgatherv::takes<nampi::param_id::root>' evaluates to false
// (Clang: "... due to requirement 'nampi::call::allgatherv::takes<...>'"). A static_assert
// message is a literal until C++26, so no single literal can name both without one per
// call and parameter, which is what this replaces.
#pragma once

#include <cstddef>
#include <type_traits>

#include "nampi/parameter.hpp"

namespace nampi::detail {

// The diagnostic of parameter Id given to Call, which does not take it. parameters.hpp
// specializes it for each parameter, with the parameter's name in the message; this one
// serves parameters declared elsewhere (their id is in the note).
template <typename Call, auto Id>
struct not_taken {
  static_assert(Call::template takes<Id>,
                "nampi: this call does not take the parameter the note names");
  static constexpr bool value = false;
};

// The same for a call form in place (with send_recv_buf), which ignores the separate buffers.
template <typename Call, auto Id>
struct ignored_in_place {
  static_assert(
      Call::template takes<Id>,
      "nampi: in place (with send_recv_buf), this call ignores the parameter the note names");
  static constexpr bool value = false;
};

// A communicator type that takes its calls' tag where it is made, not in the calls (a range:
// `static constexpr bool tag_at_creation = true;`; spec/backends.yaml tag_at_creation).
template <typename Comm>
inline constexpr bool tag_at_creation = requires { requires Comm::tag_at_creation; };

// Whether Call takes Arg; parameter Passed counts as taken where Pass (a tag on a range: the
// call's own check reports it, saying where the tag goes, so that there is one message).
template <typename Call, auto Passed, bool Pass, typename Arg>
constexpr bool taken() {
  if constexpr (is_named_v<Arg>) {
    constexpr auto id = std::remove_cvref_t<Arg>::id;
    return Call::template takes<id> || (Pass && same_id<id, Passed>());
  } else {
    return true;  // all_named reports it
  }
}

// The position of the first false flag (the last flag is false).
template <std::size_t N>
constexpr std::size_t first_false(const bool (&flags)[N]) {
  std::size_t i = 0;
  while (flags[i]) ++i;
  return i;
}

// Every argument is one Call takes (or Passed, where Pass); else the first that is not gets its
// parameter's diagnostic.
template <typename Call, auto Passed, bool Pass, typename... Args>
constexpr bool takes_all_but() {
  constexpr bool taken_at[] = {taken<Call, Passed, Pass, Args>()..., false};
  constexpr std::size_t first = first_false(taken_at);
  if constexpr (first == sizeof...(Args)) {
    return true;
  } else {
    constexpr auto id = std::remove_cvref_t<nth_t<first, Args...>>::id;
    if constexpr (Call::in_place)
      return ignored_in_place<Call, id>::value;
    else
      return not_taken<Call, id>::value;
  }
}

template <typename Call, typename... Args>
constexpr bool takes_all() {
  return takes_all_but<Call, 0, false, Args...>();
}

}  // namespace nampi::detail
