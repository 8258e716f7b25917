// nampi::with_flattened: per-destination containers as one send buffer and its counts, for
// alltoallv in one expression:
//
//   std::vector<std::vector<T>> per_rank(comm.size());          // or a map: destination -> data
//   auto received = nampi::with_flattened(per_rank).call(
//       [&](auto... flat) { return comm.alltoallv(std::move(flat)...); });
//
// call(f) passes send_buf(data) and send_counts(counts) (the flattened buffer and one count
// per rank, moved in); `auto [data, counts] = with_flattened(...)` takes them apart instead.
// A map needs the communicator's size: with_flattened(map, comm.size()); a destination outside
// 0..size-1 is a usage_error.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"

namespace nampi {

template <typename T>
struct flattened {
  std::vector<T> data;      // the messages, destination after destination
  std::vector<int> counts;  // data's elements for each destination

  // f(send_buf(data), send_counts(counts)): the call's result.
  template <typename F>
  decltype(auto) call(F&& f) && {
    return std::forward<F>(f)(params::send_buf(std::move(data)),
                              params::send_counts(std::move(counts)));
  }
};

namespace detail {

template <typename Nested>
concept keyed_nested = requires(const Nested& n) {
  typename Nested::key_type;
  typename Nested::mapped_type;
};

template <typename T, typename Message>
void append(flattened<T>& out, std::size_t destination, const Message& message) {
  const std::size_t n = size_of(message);
  out.counts[destination] = narrow<int>(static_cast<std::size_t>(out.counts[destination]) + n,
                                        "with_flattened", "a destination's count", "int");
  const auto* first = data_of(message);
  out.data.insert(out.data.end(), first, first + n);
}

}  // namespace detail

// `nested`: a range of per-destination containers (index = destination), or a map from
// destination to container together with the number of destinations.
template <typename Nested>
auto with_flattened(const Nested& nested, std::size_t destinations) {
  if constexpr (detail::keyed_nested<Nested>) {
    using T = std::remove_cv_t<detail::element_t<typename Nested::mapped_type>>;
    flattened<T> out{{}, std::vector<int>(destinations, 0)};
    std::vector<const typename Nested::mapped_type*> by_destination(destinations, nullptr);
    for (const auto& [destination, message] : nested) {
      NAMPI_CHECK(destination >= 0 && static_cast<std::size_t>(destination) < destinations,
                  "with_flattened: destination %lld is not one of the %zu ranks",
                  static_cast<long long>(destination), destinations);
      by_destination[static_cast<std::size_t>(destination)] = &message;
    }
    for (std::size_t d = 0; d < destinations; ++d)  // in destination order, as alltoallv reads it
      if (by_destination[d] != nullptr) detail::append(out, d, *by_destination[d]);
    return out;
  } else {
    using Message = std::remove_cvref_t<decltype(*std::begin(nested))>;
    using T = std::remove_cv_t<detail::element_t<Message>>;
    NAMPI_CHECK(static_cast<std::size_t>(std::size(nested)) <= destinations,
                "with_flattened: %zu containers for %zu ranks",
                static_cast<std::size_t>(std::size(nested)), destinations);
    flattened<T> out{{}, std::vector<int>(destinations, 0)};
    std::size_t d = 0;
    for (const auto& message : nested) detail::append(out, d++, message);
    return out;
  }
}

// A range of per-destination containers, one per rank.
template <typename Nested>
  requires(!detail::keyed_nested<Nested>)
auto with_flattened(const Nested& nested) {
  return with_flattened(nested, static_cast<std::size_t>(std::size(nested)));
}

}  // namespace nampi
