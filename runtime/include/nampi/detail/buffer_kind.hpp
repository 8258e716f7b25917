// What a data buffer's argument is, for a call's compile-time checks (generator/checks.py
// buffer_checks): one message naming the call and the parameter where the argument cannot be
// an MPI buffer, instead of the errors of the code that would use it.
//   - a container that is not contiguous (std::list, std::vector<bool>, std::map): MPI needs
//     the elements one after the other in memory;
//   - a contiguous one whose elements are containers themselves (std::vector<std::vector<int>>):
//     no MPI datatype describes them;
//   - a const object given where the call writes.
// A serialized buffer (nampi/serialization.hpp) is none of these: it travels as its bytes.
#pragma once

#include <cstddef>
#include <type_traits>

#include "nampi/detail/contiguous.hpp"
#include "nampi/parameter.hpp"
#include "nampi/types.hpp"

namespace nampi::detail {

// A container of any layout: it has begin() and end().
template <typename T>
concept has_elements = requires(T& t) {
  t.begin();
  t.end();
};

// The storage type of parameter Id's argument (void where it is absent or serialized).
template <auto Id, typename... Args>
constexpr auto buffer_storage() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args)) {
    using S = typename std::remove_cvref_t<nth_t<i, Args...>>::storage_type;
    if constexpr (serialized_buffer<S>)
      return std::type_identity<void>{};
    else
      return std::type_identity<S>{};
  } else {
    return std::type_identity<void>{};
  }
}
template <auto Id, typename... Args>
using buffer_storage_t = typename decltype(buffer_storage<Id, Args...>())::type;

// The element type parameter Id's argument holds (void where it is absent or serialized).
template <auto Id, typename... Args>
constexpr auto element_of_param() {
  using S = buffer_storage_t<Id, Args...>;
  if constexpr (std::is_void_v<S>)
    return std::type_identity<void>{};
  else
    return std::type_identity<element_t<S>>{};
}

// Not a container whose elements lie one after the other (and not a value MPI can send whole).
template <auto Id, typename... Args>
constexpr bool contiguous_argument() {
  using S = std::remove_cvref_t<buffer_storage_t<Id, Args...>>;
  if constexpr (std::is_void_v<S> || is_buffer_v<S> || has_mpi_type<S>)
    return true;
  else
    return !has_elements<S>;
}

// A contiguous container whose elements are containers (no MPI datatype describes them).
template <auto Id, typename... Args>
constexpr bool elements_argument() {
  using S = std::remove_cvref_t<buffer_storage_t<Id, Args...>>;
  if constexpr (std::is_void_v<S> || !is_buffer_v<S>)
    return true;
  else if constexpr (has_mpi_type<element_t<S>>)
    return true;
  else
    return !has_elements<element_t<S>>;
}

// The argument can be written: not a const object.
template <auto Id, typename... Args>
constexpr bool writable_argument() {
  using S = buffer_storage_t<Id, Args...>;
  return std::is_void_v<S> || !std::is_const_v<std::remove_reference_t<S>>;
}

}  // namespace nampi::detail
