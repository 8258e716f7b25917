// The check every call makes of its arguments, one for all calls: a call form's tag
// (nampi::call::<name>, generated beside the call; a plugin's or a range's declared by hand)
// lists the parameters the form requires and takes, and its data buffers, and
// check_call<Tag, Args...>() reports the first of, in this order:
//   an argument that is not a named parameter     nampi::error::argument_is_not_a_named_parameter
//   a required parameter not given                nampi::error::missing_required_parameter
//   a parameter given twice                       nampi::error::parameter_given_more_than_once
//   a parameter the form does not take            nampi::error::call_does_not_take_parameter
//   ... or ignores, in place                      nampi::error::in_place_call_ignores_parameter
//   a data buffer that is not contiguous          nampi::error::buffer_is_not_contiguous
//   ... whose elements are containers             nampi::error::buffer_elements_are_containers
//   ... that is const where MPI writes into it    nampi::error::buffer_is_const
//   a serialized buffer the form does not take    nampi::error::buffer_may_not_be_serialized
//   ... in a persistent form                      nampi::error::persistent_call_takes_no_serialized_buffer
//   ... in a form that takes none yet             nampi::error::call_takes_no_serialized_buffer_yet
//   beside one, a count, displacement or          nampi::error::computed_from_the_serialized_buffer
//   datatype it computes
// The first five are one error whose own line names the call and the parameter: GCC prints
//   error: invalid use of incomplete type 'struct nampi::error::missing_required_parameter<
//          nampi::call::send, nampi::param_id::dest>'
// (Clang: "implicit instantiation of undefined template ..."). Why not a static_assert: until
// C++26 its message is a literal, so a message naming both would take one literal per call and
// parameter (there were about 1,700), which every unit paid to parse; a literal per parameter
// cannot name the call. The compiler builds a type's name from the call's tag and the id.
// The buffer errors say how to mend the argument, so they are a static_assert per data
// parameter (generated once, in parameters.hpp) whose message names the parameter; the line
// above it, "In instantiation of 'struct nampi::error::buffer_is_const<nampi::call::recv,
// nampi::param_id::recv_buf>'", names the call. The serialized-buffer errors explain a rule,
// so they are one static_assert each, named the same way.
//
// A tag: `static constexpr bool in_place`, the id_list `taken` (the parameters it takes: an
// alias, so that a tag costs no instantiation until a call is checked), the id_lists
// `required`, `computed_when_serialized` (required ones a serialized buffer computes: not
// required with one), `buffers` (its data buffers) and `written` (those MPI writes into);
// `serialized` (a detail::serialized_buffers) with the lists `serializable` and
// `computed_from_serialized`; deriving from detail::tag_defaults, it declares only those it
// fills.
#pragma once

#include <cstddef>
#include <type_traits>

#include "nampi/detail/buffer_kind.hpp"
#include "nampi/detail/pack.hpp"
#include "nampi/error.hpp"
#include "nampi/parameter.hpp"

// Never defined: their names are the message (see above).
namespace nampi::error {
// nampi: the argument at this position (from 1) of the call is not a named parameter such as
// send_buf(x); the third argument is its type.
template <typename Call, std::size_t Position, typename Argument>
struct argument_is_not_a_named_parameter;
// nampi: the call requires this parameter, which is missing.
template <typename Call, auto Parameter>
struct missing_required_parameter;
// nampi: this parameter is given to the call more than once.
template <typename Call, auto Parameter>
struct parameter_given_more_than_once;
// nampi: the call (the first argument) does not take this parameter (the second).
template <typename Call, auto Parameter>
struct call_does_not_take_parameter;
// nampi: in place (with send_recv_buf), the call (the first argument) ignores this parameter
// (the second): give the buffers as send_recv_buf only.
template <typename Call, auto Parameter>
struct in_place_call_ignores_parameter;

// The buffer errors; parameters.hpp specializes them per data parameter, naming it.
template <typename Call, auto Parameter>
struct buffer_is_not_contiguous {
  static_assert(detail::dependent_false<Call>,
                "nampi: a buffer is not contiguous (a std::list, a std::vector<bool>, ...): give a "
                "contiguous buffer such as a std::vector, or nampi::as_serialized(x)");
  static constexpr bool value = false;
};
template <typename Call, auto Parameter>
struct buffer_elements_are_containers {
  static_assert(detail::dependent_false<Call>,
                "nampi: a buffer is not a buffer of MPI elements (its elements are containers): "
                "flatten it with nampi::with_flattened(x), or nampi::as_serialized(x)");
  static constexpr bool value = false;
};
template <typename Call, auto Parameter>
struct buffer_is_const {
  static_assert(detail::dependent_false<Call>,
                "nampi: MPI writes into a buffer, which must be writable: give a non-const buffer");
  static constexpr bool value = false;
};
// The serialized-buffer errors (nampi/serialization.hpp).
template <typename Call, auto Parameter>
struct buffer_may_not_be_serialized {
  static_assert(detail::dependent_false<Call>,
                "nampi: this buffer may not be serialized in this call (its tag's `serializable` "
                "list names those that may)");
  static constexpr bool value = false;
};
template <typename Call, auto Parameter>
struct persistent_call_takes_no_serialized_buffer {
  static_assert(detail::dependent_false<Call>,
                "nampi: a persistent call takes no serialized buffer (each start() would resend "
                "the first bytes)");
  static constexpr bool value = false;
};
template <typename Call, auto Parameter>
struct call_takes_no_serialized_buffer_yet {
  static_assert(detail::dependent_false<Call>,
                "nampi: serialized buffers are not supported yet in this call");
  static constexpr bool value = false;
};
template <typename Call, auto Parameter>
struct computed_from_the_serialized_buffer {
  static_assert(detail::dependent_false<Call>,
                "nampi: this parameter is computed from the serialized buffer (it counts or types "
                "its bytes); do not give it (asking it back with its _out() form is fine)");
  static constexpr bool value = false;
};
}  // namespace nampi::error

namespace nampi::detail {

// Instantiating one of these is the error: an incomplete base.
template <typename Call, std::size_t Position, typename Argument>
struct not_named : error::argument_is_not_a_named_parameter<Call, Position, Argument> {
  static constexpr bool value = false;
};
template <typename Call, auto Id>
struct missing : error::missing_required_parameter<Call, Id> {
  static constexpr bool value = false;
};
template <typename Call, auto Id>
struct given_twice : error::parameter_given_more_than_once<Call, Id> {
  static constexpr bool value = false;
};
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

// The position of the first false flag (the last flag is false).
template <std::size_t N>
constexpr std::size_t first_false(const bool (&flags)[N]) {
  std::size_t i = 0;
  while (flags[i]) ++i;
  return i;
}

// The element type of call<T>() when the caller wrote call(...).
struct unspecified_element {};

// How a form takes serialized buffers: unchecked (a plugin's or a range's tag, whose calls
// hand their arguments on to checked ones), only those it lists, or none (persistent: each
// start() would send the first bytes again; or not yet).
enum class serialized_buffers { unchecked, listed, none_persistent, none_yet };

// What a tag lists where it lists nothing: tags derive from this and declare only the lists
// they fill (a derived class's member hides the base's).
struct tag_defaults {
  static constexpr bool returns_before_completion = false;  // a nonblocking or persistent form
  using required = id_list<>;
  using computed_when_serialized = id_list<>;
  using buffers = id_list<>;
  using written = id_list<>;
  static constexpr serialized_buffers serialized = serialized_buffers::unchecked;
  using serializable = id_list<>;
  using computed_from_serialized = id_list<>;
};

// The I-th of the ids Vs (of any enums).
template <std::size_t I, auto... Vs>
inline constexpr auto nth_id = nth_t<I, std::integral_constant<decltype(Vs), Vs>...>::value;

// Required parameter Id is given, or computed from a serialized buffer among Args.
template <typename Call, auto Id, typename... Args>
constexpr bool required_given() {
  if constexpr (has_param<Id, Args...>)
    return true;
  else
    return any_serialized<Args...> && Call::computed_when_serialized::template contains<Id>;
}

// Every parameter of Required (an id_list) is given; else the first missing one's diagnostic.
template <typename Call, typename Required, typename... Args>
struct requirement;
template <typename Call, auto... Ids, typename... Args>
struct requirement<Call, id_list<Ids...>, Args...> {
  static constexpr bool check() {
    constexpr bool given[] = {required_given<Call, Ids, Args...>()..., false};
    constexpr std::size_t first = first_false(given);
    if constexpr (first == sizeof...(Ids))
      return true;
    else
      return missing<Call, nth_id<first, Ids...>>::value;
  }
};

// Each data buffer of Call among Args is one MPI can use (nampi/detail/buffer_kind.hpp); else
// the first that is not gets its parameter's diagnostic.
template <typename Call, typename Buffers, typename Written, typename... Args>
struct buffer_check;
template <typename Call, auto... Ids, auto... Written, typename... Args>
struct buffer_check<Call, id_list<Ids...>, id_list<Written...>, Args...> {
  static constexpr bool check() {
    constexpr bool contiguous[] = {contiguous_argument<Ids, Args...>()..., false};
    constexpr bool elements[] = {elements_argument<Ids, Args...>()..., false};
    constexpr bool writable[] = {writable_argument<Written, Args...>()..., false};
    constexpr std::size_t scattered = first_false(contiguous), nested = first_false(elements);
    constexpr std::size_t fixed = first_false(writable);
    if constexpr (scattered < sizeof...(Ids))
      return error::buffer_is_not_contiguous<Call, nth_id<scattered, Ids...>>::value;
    else if constexpr (nested < sizeof...(Ids))
      return error::buffer_elements_are_containers<Call, nth_id<nested, Ids...>>::value;
    else if constexpr (fixed < sizeof...(Written))
      return error::buffer_is_const<Call, nth_id<fixed, Written...>>::value;
    else
      return true;
  }
};

template <std::size_t I, typename... Args>
inline constexpr auto id_at = std::remove_cvref_t<nth_t<I, Args...>>::id;
// Serialized buffers among Args are those Call takes, and none of Computed (what they compute)
// is given beside them; else the first stray's diagnostic.
template <typename Call, typename Computed, typename... Args>
struct serialized_check;
template <typename Call, auto... Computed, typename... Args>
struct serialized_check<Call, id_list<Computed...>, Args...> {
  static constexpr bool check() {
    constexpr bool allowed[] = {serialized_allowed<typename Call::serializable, Args>()..., false};
    constexpr std::size_t stray = first_false(allowed);
    if constexpr (Call::serialized == serialized_buffers::unchecked) {
      return true;
    } else if constexpr (stray < sizeof...(Args)) {
      constexpr auto id = id_at<stray, Args...>;
      if constexpr (Call::serialized == serialized_buffers::listed)
        return error::buffer_may_not_be_serialized<Call, id>::value;
      else if constexpr (Call::serialized == serialized_buffers::none_persistent)
        return error::persistent_call_takes_no_serialized_buffer<Call, id>::value;
      else
        return error::call_takes_no_serialized_buffer_yet<Call, id>::value;
    } else {
      constexpr bool not_given[] = {not_given_when_serialized<Computed, Args...>()..., false};
      constexpr std::size_t given = first_false(not_given);
      if constexpr (given < sizeof...(Computed))
        return error::computed_from_the_serialized_buffer<Call, nth_id<given, Computed...>>::value;
      else
        return true;
    }
  }
};
// Named argument Arg is one Call takes (or parameter Passed, where Pass: a tag on a range,
// which the call's own check reports, saying where the tag goes).
template <typename Call, auto Passed, bool Pass, typename Arg>
constexpr bool taken() {
  constexpr auto id = Arg::id;
  return Call::taken::template contains<id> || (Pass && same_id<id, Passed>());
}

// Named argument Arg, taken by Call, is not given again.
template <typename Call, auto Passed, bool Pass, typename Arg, typename... Args>
constexpr bool once() {
  if constexpr (taken<Call, Passed, Pass, Arg>())
    return count_of<Arg::id, Args...> <= 1;
  else
    return true;  // not taken: reported as such
}

// The check of Call's arguments (Args: without cv or reference); false after its one error.
template <typename Call, auto Passed, bool Pass, typename... Args>
constexpr bool check_call_but() {
  constexpr bool named[] = {is_named_v<Args>..., false};
  constexpr std::size_t unnamed = first_false(named);
  if constexpr (unnamed < sizeof...(Args)) {
    return not_named<Call, unnamed + 1, nth_t<unnamed, Args...>>::value;
  } else if constexpr (!requirement<Call, typename Call::required, Args...>::check()) {
    return false;
  } else {
    constexpr bool single[] = {once<Call, Passed, Pass, Args, Args...>()..., false};
    constexpr std::size_t twice = first_false(single);
    constexpr bool taken_at[] = {taken<Call, Passed, Pass, Args>()..., false};
    constexpr std::size_t stray = first_false(taken_at);
    if constexpr (twice < sizeof...(Args))
      return given_twice<Call, id_at<twice, Args...>>::value;
    else if constexpr (stray < sizeof...(Args) && Call::in_place)
      return ignored_in_place<Call, id_at<stray, Args...>>::value;
    else if constexpr (stray < sizeof...(Args))
      return not_taken<Call, id_at<stray, Args...>>::value;
    else if constexpr (!buffer_check<Call, typename Call::buffers, typename Call::written,
                                     Args...>::check())
      return false;
    else
      return serialized_check<Call, typename Call::computed_from_serialized, Args...>::check();
  }
}

template <typename Call, typename... Args>
constexpr bool check_call() {
  return check_call_but<Call, 0, false, Args...>();
}

}  // namespace nampi::detail
