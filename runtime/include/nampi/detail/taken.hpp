// Whether a call takes each argument it was given: one check per call form against the
// parameters it takes.
//
// A call form's tag (nampi::call::<name>, generated beside the call) says which parameters
// it takes: `template <auto Id> static constexpr bool takes`. The first argument it does not
// take ends the compile with one error whose line names the call and the parameter: GCC prints
//   error: invalid use of incomplete type 'struct nampi::error::call_does_not_take_parameter<
//          nampi::call::allgatherv, nampi::param_id::root>'
// (Clang: "implicit instantiation of undefined template ..."), and for a call in place
//   ... nampi::error::in_place_call_ignores_parameter<nampi::call::allreduce_in_place,
//       nampi::param_id::send_count>
// Why not a static_assert: until C++26 its message is a literal, so naming both would take one
// literal per call and parameter (about 19,000), which the headers cannot afford to parse; a
// type's name is built by the compiler from the call's tag and the parameter's id.
#pragma once

#include <cstddef>
#include <type_traits>

#include "nampi/parameter.hpp"

// Never defined: their names are the message (see above).
namespace nampi::error {
// nampi: the call (the first argument) does not take this parameter (the second).
template <typename Call, auto Parameter>
struct call_does_not_take_parameter;
// nampi: in place (with send_recv_buf), the call (the first argument) ignores this parameter
// (the second): give the buffers as send_recv_buf only.
template <typename Call, auto Parameter>
struct in_place_call_ignores_parameter;
}  // namespace nampi::error

namespace nampi::detail {

// Parameter Id given to Call, which does not take it: instantiating this is the error.
template <typename Call, auto Id>
struct not_taken : error::call_does_not_take_parameter<Call, Id> {
  static constexpr bool value = false;
};
template <typename Call, auto Id>
struct ignored_in_place : error::in_place_call_ignores_parameter<Call, Id> {
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
