// What a call returns: nothing, the one returned object, or a result object.
//
// The receive buffer comes first, then the out-parameters in the order the
// caller named them; structured bindings and `extract_<name>()` read it.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "nampi/detail/pack.hpp"
#include "nampi/parameter.hpp"

namespace nampi {

template <auto Id, typename T>
struct returned_value {
  static constexpr auto id = Id;
  T value;
};

template <typename... Values>
class result;

namespace detail {
template <typename... T>
struct type_list {};

// Whether a result holds parameter Id, read from the arguments of its type, not from the
// class: result_extractors (its base) asks while the result is still incomplete, and clang
// checks the extractors' constraints when it instantiates that base.
template <typename Result, auto Id>
inline constexpr bool holds_parameter = false;
template <auto Id, typename... Values>
inline constexpr bool holds_parameter<result<Values...>, Id> = ((Values::id == Id) || ...);

template <typename Result>
struct result_extractors;  // generated: one extract_<name>() per parameter

template <auto Id, typename... Values>
constexpr std::size_t index_of_id() {
  constexpr bool matches[] = {(Values::id == Id)..., false};
  for (std::size_t i = 0; i < sizeof...(Values); ++i)
    if (matches[i]) return i;
  return sizeof...(Values);
}
}  // namespace detail

template <typename... Values>
class result : public detail::result_extractors<result<Values...>> {
 public:
  explicit result(Values&&... values) : values_{{{std::move(values)}...}} {}

  template <std::size_t I>
  auto& get() & {
    return detail::pick<I>(values_).value;
  }
  template <std::size_t I>
  const auto& get() const& {
    return detail::pick<I>(values_).value;
  }
  template <std::size_t I>
  decltype(auto) get() && {
    if constexpr (std::is_reference_v<decltype(detail::pick<I>(values_).value)>)
      return (detail::pick<I>(values_).value);  // a view: refers to the call's storage
    else
      return std::move(detail::pick<I>(values_).value);
  }

  template <auto Id>
  static constexpr bool contains = detail::holds_parameter<result, Id>;

  // Moves out the value of parameter Id (used by the extract_<name>() members);
  // from a view (a persistent call's result), copies it.
  template <auto Id>
  auto extract() {
    static_assert(contains<Id>, "nampi: this result does not hold that parameter");
    constexpr std::size_t index = detail::index_of_id<Id, Values...>();
    using V = decltype(detail::pick<index>(values_).value);
    if constexpr (std::is_reference_v<V>)
      return std::remove_cvref_t<V>(detail::pick<index>(values_).value);
    else
      return std::move(detail::pick<index>(values_).value);
  }

 private:
  detail::pack<Values...> values_;
};

namespace detail {

// Sort key of a returned slot: the primary (receive) buffer first, then the
// position of the parameter among the caller's arguments.
template <bool Primary, typename Slot, typename... Args>
constexpr std::size_t result_position() {
  return Primary ? 0 : 1 + index_of<Slot::id, Args...>();
}

// Which slots a call returns, in the order it returns them: the primary
// first, then the others in the order the caller named them.
template <typename ArgList>
struct result_order;
template <typename... Args>
struct result_order<type_list<Args...>> {
  template <typename Primary, typename... Others>
  static constexpr auto of() {
    constexpr std::size_t n = 1 + sizeof...(Others);
    constexpr std::array<bool, n> keep{Primary::returned, Others::returned...};
    constexpr std::array<std::size_t, n> key{result_position<true, Primary, Args...>(),
                                             result_position<false, Others, Args...>()...};
    constexpr std::size_t kept = [&] {
      std::size_t k = 0;
      for (bool b : keep) k += b ? 1 : 0;
      return k;
    }();
    // out[i] = which slot goes to place i
    std::array<std::size_t, kept> out{};
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (keep[i]) out[k++] = i;
    for (std::size_t i = 1; i < kept; ++i)  // insertion sort by key (n is tiny)
      for (std::size_t j = i; j > 0 && key[out[j]] < key[out[j - 1]]; --j)
        std::swap(out[j], out[j - 1]);
    return out;
  }
};

template <typename Slot>
using slot_type = std::remove_reference_t<Slot>;

// A slot with work left once MPI is done with it (a serialized buffer that
// received bytes deserializes them) does it here; it may read the call's
// other slots (the counts and displacements of gathered blocks).
template <typename Slot, typename Slots>
concept finishes = requires(Slot& slot, const Slots& slots) { slot.finish(slots); };
template <typename Slot, typename Slots>
void finish_slot(Slot& slot, const Slots& slots) {
  if constexpr (finishes<Slot, Slots>) slot.finish(slots);
}

// Builds the call's return value from its slots (first = primary), moving
// the values out of them.
template <typename... Args, typename Primary, typename... Others>
auto make_result(Primary& primary, Others&... others) {
  constexpr auto order = result_order<type_list<Args...>>::template of<Primary, Others...>();
  auto all = refs(primary, others...);
  // Only where some slot has work left: no empty finish_slot per slot to compile otherwise.
  using Slots = decltype(all);
  if constexpr (finishes<Primary, Slots> || (finishes<Others, Slots> || ...)) {
    finish_slot(primary, all);
    (finish_slot(others, all), ...);
  }
  if constexpr (order.size() == 0) {
    return;
  } else if constexpr (order.size() == 1) {
    return pick<order[0]>(all).extract();
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return result<returned_value<
          slot_type<pack_element_t<order[I], decltype(all)>>::id,
          typename slot_type<pack_element_t<order[I], decltype(all)>>::object_type>...>(
          {pick<order[I]>(all).extract()}...);
    }(std::make_index_sequence<order.size()>{});
  }
}

// The same values, referenced in the slots (which keep them): a persistent
// call's result, valid until its next start.
template <typename... Args, typename Primary, typename... Others>
decltype(auto) view_result(Primary& primary, Others&... others) {
  constexpr auto order = result_order<type_list<Args...>>::template of<Primary, Others...>();
  auto all = refs(primary, others...);
  if constexpr (order.size() == 0) {
    return;
  } else if constexpr (order.size() == 1) {
    return pick<order[0]>(all).get();
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return result<returned_value<slot_type<pack_element_t<order[I], decltype(all)>>::id,
                                   decltype(pick<order[I]>(all).get())>...>(
          {pick<order[I]>(all).get()}...);
    }(std::make_index_sequence<order.size()>{});
  }
}

}  // namespace detail
}  // namespace nampi

template <typename... Values>
struct std::tuple_size<nampi::result<Values...>>
    : std::integral_constant<std::size_t, sizeof...(Values)> {};

template <std::size_t I, typename... Values>
struct std::tuple_element<I, nampi::result<Values...>> {
  using type = decltype(nampi::detail::nth_t<I, Values...>::value);
};
