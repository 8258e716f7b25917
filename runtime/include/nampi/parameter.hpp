// Named parameter objects and their compile-time lookup.
//
// A factory such as `send_buf(v)` returns a `named<Id, Role, Storage, Policy>`.
// Storage is `T&` for an lvalue argument (referenced, never copied) and `T`
// for an rvalue (moved in; returned to the caller if the call writes it).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/pack.hpp"

namespace nampi {

// Storage types of spec/parameters.yaml defined after the generated code that names them.
class OwnedCommunicator;  // nampi/communicator.hpp
template <typename T>
class Window;  // nampi/window.hpp
class File;    // nampi/file.hpp

// Resize policies for buffers the call writes.
struct no_resize {};      // the buffer must already be large enough (checked)
struct grow_only {};      // enlarged when too small, never shrunk
struct resize_to_fit {};  // resized to exactly the received size

namespace detail {

// A policy the caller did not choose; the binding's default applies.
struct policy_unspecified {};

enum class role {
  in,     // a value the caller gives
  out,    // a value the caller asks to get back (`*_out()`, `recv_buf(x)`)
  inout,  // read and written (`send_recv_buf(x)`)
};

template <auto Id, role Role, typename Storage, typename Policy>
struct named {
  static constexpr auto id = Id;
  static constexpr role direction = Role;
  using storage_type = Storage;
  using policy = Policy;
  Storage value;
};

// What a parameter's value must be (spec/parameters.yaml: `takes`). A factory
// checks it with one static_assert naming the parameter, so that misuse is one
// line at the caller's, not a cascade inside the call.
enum class value_kind {
  any,      // not checked here (buffers, datatypes, ...; the call checks what it uses)
  integer,  // a rank, tag or count: an integer or an enum (passed as its underlying type)
  array,    // one value per rank or dimension: a contiguous range
  op,       // a reduction: an MPI_Op, a functor or another callable
};

enum class value_fault {
  none,
  floating_point,  // integer expected: 1.7 would be truncated without a word
  not_integer,     // integer expected: a string, a pointer, a class...
  not_array,       // array expected, a single value given
  integer_not_op,  // op expected: an integer (MPI_Op is one only under MPICH, see below)
  not_op,          // op expected: a string, a data pointer, ...
};

template <value_kind Kind, typename T>
constexpr value_fault value_fault_of() {
  using U = std::remove_cvref_t<T>;
  if constexpr (Kind == value_kind::integer) {
    if constexpr (std::is_integral_v<U> || std::is_enum_v<U>)
      return value_fault::none;
    else if constexpr (std::is_floating_point_v<U>)
      return value_fault::floating_point;
    else
      return value_fault::not_integer;
  } else if constexpr (Kind == value_kind::array) {
    if constexpr (is_buffer_v<U>)
      return value_fault::none;
    else
      return value_fault::not_array;
  } else if constexpr (Kind == value_kind::op) {
    // Open MPI's MPI_Op is a pointer, MPICH's an int: an MPI_Op passes as itself;
    // otherwise only class types (functors, lambdas, std::function) and functions.
    using F = std::remove_pointer_t<U>;
    if constexpr (std::is_same_v<U, MPI_Op> || std::is_class_v<U> || std::is_function_v<F>)
      return value_fault::none;
    else if constexpr (std::is_integral_v<U> || std::is_enum_v<U>)
      return value_fault::integer_not_op;
    else
      return value_fault::not_op;
  } else {
    return value_fault::none;
  }
}

// Where the MPI_Op is an integer (MPICH), a constant of that type cannot be told
// from an integer literal by its type: op(MPI_SUM) and op(42) both pass an int
// prvalue. The generated factory takes such an argument only as an lvalue (a
// variable holding an op); a prvalue goes to ops.hpp's op(op_constant), which
// checks its value at compile time.
template <value_kind Kind, typename T>
inline constexpr bool factory_takes =
    Kind != value_kind::op || !std::is_integral_v<MPI_Op> ||
    !std::is_same_v<std::remove_cvref_t<T>, MPI_Op> || std::is_lvalue_reference_v<T>;

// The parameter object of a factory. Placeholder: what it holds when the value
// was rejected (the factory's static_assert has said why; a valid stand-in
// keeps the call from adding errors of its own). An enum travels as its
// underlying type (MPI takes an int tag).
template <auto Id, role Role, value_kind Kind, typename Placeholder, typename Policy, typename T>
constexpr auto make_named(T&& value) {
  using U = std::remove_cvref_t<T>;
  if constexpr (value_fault_of<Kind, T>() != value_fault::none)
    return named<Id, Role, Placeholder, Policy>{};
  else if constexpr (Kind == value_kind::integer && std::is_enum_v<U>)
    return named<Id, Role, std::underlying_type_t<U>, Policy>{
        static_cast<std::underlying_type_t<U>>(value)};
  else
    return named<Id, Role, T, Policy>{std::forward<T>(value)};
}

// A braced list given to an array parameter (`send_buf({1, 2, 3})`): moved in
// as a std::vector, as an rvalue container would be.
template <auto Id, role Role, typename Policy, typename E>
auto make_named_list(std::initializer_list<E> values) {
  return named<Id, Role, std::vector<E>, Policy>{std::vector<E>(values)};
}

template <typename T>
struct is_named : std::false_type {};
template <auto Id, role Role, typename Storage, typename Policy>
struct is_named<named<Id, Role, Storage, Policy>> : std::true_type {};

template <typename T>
inline constexpr bool is_named_v = is_named<std::remove_cvref_t<T>>::value;

// True if T is the named parameter Id (ids of other enums never match).
template <auto Id, typename T>
constexpr bool is_param() {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_named_v<U>) {
    if constexpr (std::is_same_v<std::remove_cv_t<decltype(U::id)>, decltype(Id)>)
      return U::id == Id;
  }
  return false;
}

// How often parameter Id occurs among Args.
template <auto Id, typename... Args>
inline constexpr std::size_t count_of = (std::size_t{0} + ... + (is_param<Id, Args>() ? 1 : 0));

template <auto Id, typename... Args>
inline constexpr bool has_param = count_of<Id, Args...> > 0;

// Position of parameter Id among Args (sizeof...(Args) if absent).
template <auto Id, typename... Args>
constexpr std::size_t index_of() {
  constexpr bool matches[] = {is_param<Id, Args>()..., false};
  for (std::size_t i = 0; i < sizeof...(Args); ++i)
    if (matches[i]) return i;
  return sizeof...(Args);
}

// Role of parameter Id among Args (only meaningful if present).
template <auto Id, typename... Args>
constexpr role role_of() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args))
    return std::remove_cvref_t<nth_t<i, Args...>>::direction;
  else
    return role::in;
}

// The call computes parameter Id: it is omitted, or asked back (`*_out()`).
template <auto Id, typename... Args>
inline constexpr bool computes = !has_param<Id, Args...> || role_of<Id, Args...>() != role::in;

// The call creates the storage of parameter Id: it is omitted, or asked back
// without a buffer of the caller's to write into.
template <auto Id, typename... Args>
constexpr bool creates() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args)) {
    using P = std::remove_cvref_t<nth_t<i, Args...>>;
    return P::direction != role::in && !std::is_reference_v<typename P::storage_type>;
  } else {
    return true;
  }
}

// Whether T is a complete type where a call is used: the header that defines a call's result
// type (nampi/window.hpp) is included (spec/parameters.yaml `header`).
template <typename T, typename... Args>
constexpr bool complete_type() {
  return requires { sizeof(T); };
}

// The argument of parameter Id is a variable (an lvalue), not a temporary; `writable`: nor
// const. True where it is absent (one-sided buffers, spec/parameters.yaml lasting_pointer).
template <auto Id, bool Writable, typename... Args>
constexpr bool variable_argument() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args)) {
    using S = typename std::remove_cvref_t<nth_t<i, Args...>>::storage_type;
    return std::is_lvalue_reference_v<S> &&
           (!Writable || !std::is_const_v<std::remove_reference_t<S>>);
  } else {
    return true;
  }
}

// The argument object of parameter Id (which must be present).
template <auto Id, typename... Args>
constexpr decltype(auto) get_param(Args&... args) {
  constexpr std::size_t i = index_of<Id, Args...>();
  static_assert(i < sizeof...(Args), "nampi internal: parameter lookup without presence check");
  return pick<i>(refs(args...));
}

// Every argument is a named parameter.
template <typename... Args>
inline constexpr bool all_named = (true && ... && is_named_v<Args>);

// A buffer of nampi/serialization.hpp (as_serialized, as_deserializable): its
// type says so, so that calls can reject it without including cereal.
template <typename T>
concept serialized_buffer = requires { typename std::remove_cvref_t<T>::nampi_serialized; };

// Id and Other are the same parameter (ids of different enums, e.g. a plugin's, never are).
template <auto Id, auto Other>
constexpr bool same_id() {
  if constexpr (std::is_same_v<decltype(Id), decltype(Other)>)
    return Id == Other;
  else
    return false;
}

template <auto... Ids>
struct id_list {
  template <auto Id>
  static constexpr bool contains = (same_id<Id, Ids>() || ...);
};

template <typename Allowed, typename Arg>
constexpr bool serialized_allowed() {
  using U = std::remove_cvref_t<Arg>;
  if constexpr (is_named_v<U>) {
    if constexpr (serialized_buffer<typename U::storage_type>)
      return Allowed::template contains<U::id>;
  }
  return true;
}

// Serialized buffers appear only as the parameters in Allowed (an id_list):
// the ones a call's binding lists under `serialized`.
template <typename Allowed, typename... Args>
inline constexpr bool serialized_only = (true && ... && serialized_allowed<Allowed, Args>());

// Parameter Id is present and a serialized buffer.
template <auto Id, typename... Args>
constexpr bool is_serialized() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args))
    return serialized_buffer<typename std::remove_cvref_t<nth_t<i, Args...>>::storage_type>;
  else
    return false;
}

// Some argument is a serialized buffer (a binding's `serialized_via` call serves it).
template <typename... Args>
inline constexpr bool any_serialized = !serialized_only<id_list<>, Args...>;

// With a serialized buffer among Args, parameter Id (a count, displacement or
// datatype of the serialized side) describes bytes the call computes: it may be
// asked back, not given.
template <auto Id, typename... Args>
constexpr bool not_given_when_serialized() {
  if constexpr (any_serialized<Args...> && has_param<Id, Args...>)
    return role_of<Id, Args...>() != role::in;
  else
    return true;
}

}  // namespace detail
}  // namespace nampi
