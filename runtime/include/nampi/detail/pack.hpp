// A call's values side by side, and the i-th type of a pack, without std::tuple.
//
// A call holds its slots together (to build its result, to keep them while a
// nonblocking call runs) and picks the i-th argument or type of a pack. With
// std::tuple and std::tie every distinct set of types instantiates tuple's
// constrained constructors and their traits: a fifth of the compile time
// nampi's calls cost in an application (issue 14). Here a pack is an
// aggregate with one base per value, and pick<I> finds the base by overload
// resolution: one class per set of types, nothing else.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace nampi::detail {

template <std::size_t I, typename T>
struct pack_leaf {
  [[no_unique_address]] T value;
};

template <typename Indices, typename... Ts>
struct pack_of;
template <std::size_t... I, typename... Ts>
struct pack_of<std::index_sequence<I...>, Ts...> : pack_leaf<I, Ts>... {
  static constexpr std::size_t size = sizeof...(Ts);
};

// pack<A&, B>{{{a}, {std::move(b)}}}: holds a reference to a, and b itself. A
// class, not an alias of pack_of, so that function signatures name it plainly.
template <typename... Ts>
struct pack : pack_of<std::index_sequence_for<Ts...>, Ts...> {};

// The I-th value (for a reference member: what it refers to).
template <std::size_t I, typename T>
constexpr T& pick(pack_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <std::size_t I, typename T>
constexpr const T& pick(const pack_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}

// Calls f with the values of p, in order.
template <typename F, std::size_t... I, typename... Ts>
constexpr decltype(auto) apply_pack(F&& f, pack_of<std::index_sequence<I...>, Ts...>& p) {
  return std::forward<F>(f)(pick<I>(p)...);
}

// References to the arguments, for picking one by index.
template <typename... Args>
constexpr auto refs(Args&... args) noexcept {
  return pack<Args&...>{{{args}...}};
}

// The I-th type of Ts.
#if defined(__has_builtin)
#if __has_builtin(__type_pack_element)
#define NAMPI_HAVE_TYPE_PACK_ELEMENT 1
#endif
#endif
#if defined(NAMPI_HAVE_TYPE_PACK_ELEMENT)
template <std::size_t I, typename... Ts>
using nth_t = __type_pack_element<I, Ts...>;
#else
template <std::size_t I, typename T>
struct index_tag {};
template <typename Indices, typename... Ts>
struct index_tags;
template <std::size_t... I, typename... Ts>
struct index_tags<std::index_sequence<I...>, Ts...> : index_tag<I, Ts>... {};
template <std::size_t I, typename T>
std::type_identity<T> type_at(const index_tag<I, T>*);  // declared only: decltype reads it
template <std::size_t I, typename... Ts>
using nth_t = typename decltype(type_at<I>(
    static_cast<const index_tags<std::index_sequence_for<Ts...>, Ts...>*>(nullptr)))::type;
#endif

// The type of a pack's I-th value.
template <std::size_t I, typename T>
std::type_identity<T> leaf_type(const pack_leaf<I, T>*);  // declared only: decltype reads it
template <std::size_t I, typename Pack>
using pack_element_t = typename decltype(leaf_type<I>(static_cast<const Pack*>(nullptr)))::type;

}  // namespace nampi::detail
