// Buffers: contiguous sized ranges (vector, array, span, string, C array), and
// the data pointer, size and element type of a buffer or of a single value.
//
// The standard library's buffers (and nampi's own) are known by their type;
// any other type is asked through the ranges concepts. The answer is the same, but evaluating
// std::ranges::contiguous_range instantiates the iterator concepts and
// common_reference for every type asked, a cost each call of an application
// paid again (issue 14).
#pragma once

#include <array>
#include <cstddef>
#include <span>  // std::ranges::data/size/contiguous_range, lighter than <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "nampi/detail/std_parts.hpp"

namespace nampi::detail {

template <typename T>
struct known_buffer {
  static constexpr bool known = false;
};
// nampi's own buffers (scratch_array) say so: `using nampi_contiguous = void;`.
template <typename T>
  requires requires { typename T::nampi_contiguous; }
struct known_buffer<T> {
  static constexpr bool known = true;
  using element = typename T::value_type;
};
template <typename T, typename A>
struct known_buffer<std::vector<T, A>> {
  static constexpr bool known = true;
  using element = T;
};
template <typename A>
struct known_buffer<std::vector<bool, A>> {  // packed bits: no buffer (the concepts say so too)
  static constexpr bool known = false;
};
template <typename T, std::size_t N>
struct known_buffer<std::array<T, N>> {
  static constexpr bool known = true;
  using element = std::remove_cv_t<T>;
};
template <typename T, std::size_t E>
struct known_buffer<std::span<T, E>> {
  static constexpr bool known = true;
  using element = std::remove_cv_t<T>;
};
template <typename C, typename Traits, typename A>
struct known_buffer<std::basic_string<C, Traits, A>> {
  static constexpr bool known = true;
  using element = C;
};
template <typename T, std::size_t N>
struct known_buffer<T[N]> {
  static constexpr bool known = true;
  using element = std::remove_cv_t<T>;
};

template <typename T>
constexpr bool contiguous_sized() {
  using U = std::remove_cv_t<T>;
  if constexpr (known_buffer<U>::known)
    return true;
  else
    return std::ranges::contiguous_range<U> && std::ranges::sized_range<U>;
}

// A contiguous range (vector, array, span, C array) vs a single value.
template <typename T>
inline constexpr bool is_buffer_v = contiguous_sized<T>();

template <typename T, bool = is_buffer_v<T>, bool = known_buffer<T>::known>
struct element_of {
  using type = std::remove_cv_t<T>;
};
template <typename T>
struct element_of<T, true, true> {
  using type = typename known_buffer<T>::element;
};
template <typename T>
struct element_of<T, true, false> {
  using type = std::ranges::range_value_t<T>;
};
template <typename T>
using element_t = typename element_of<std::remove_cvref_t<T>>::type;

// Data pointer and element count of a buffer or of a single value.
template <typename T>
auto* data_of(T& object) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_array_v<U> && known_buffer<U>::known)
    return object + 0;
  else if constexpr (known_buffer<U>::known)
    return object.data();
  else if constexpr (is_buffer_v<U>)
    return std::ranges::data(object);
  else
    return std::addressof(object);
}
template <typename T>
std::size_t size_of(const T& object) {
  if constexpr (std::is_array_v<T> && known_buffer<T>::known)
    return std::extent_v<T>;
  else if constexpr (known_buffer<T>::known)
    return object.size();
  else if constexpr (is_buffer_v<T>)
    return std::ranges::size(object);
  else
    return 1;
}

}  // namespace nampi::detail
