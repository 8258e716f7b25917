// Helpers that the generated typed layer (generated/include/nampi/mpi/*.hpp)
// calls: lengths taken from spans, checked count narrowing for the large-count
// fallback, and spans of strong handles seen as arrays of C handles.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/error.hpp"

namespace nampi::mpi {

// A count given to a large-count (MPI_Count) overload does not fit the type of
// the function without `_c` that this MPI offers instead (e.g. Open MPI 5 has
// no MPI_Send_c, so MPI_Send's `int count` must hold it).
class count_error : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

namespace detail {

// What the typed layer narrows into (nampi/detail/narrow.hpp's `into`): the function
// without `_c` that the MPI offers in place of a missing large-count twin (e.g.
// Open MPI 5 has no MPI_Send_c, so MPI_Send's `int count` must hold it), and the
// length argument of a C function taken from a span's size.
inline constexpr const char* without_c = "the function without _c that this MPI offers instead";
inline constexpr const char* length_argument = "the C function's length argument";

// Every element of `values` narrowed to To (arrays of counts or displacements).
template <typename To, typename From>
std::vector<To> narrow_each(const char* function, const char* parameter,
                            std::span<const From> values) {
  std::vector<To> out;
  out.reserve(values.size());
  for (const From v : values)
    out.push_back(nampi::detail::narrow<To, count_error>(v, function, parameter, without_c));
  return out;
}

// Several arrays share one length argument: all spans must have the same size (MPI reads or
// writes that many entries of each: a size the caller gave, checked unless
// NAMPI_TRUST_GIVEN_SIZES).
inline void check_same_length([[maybe_unused]] const char* function,
                              [[maybe_unused]] const char* parameter,
                              [[maybe_unused]] std::size_t size, [[maybe_unused]] const char* first,
                              [[maybe_unused]] std::size_t first_size) {
  NAMPI_CHECK_IF(false, size == first_size, "%s: %s has %zu elements, %s has %zu", function,
                 parameter, size, first, first_size);
}

// A span of strong handles as the array of C handles MPI reads or writes.
// handle<K> is standard-layout with the C handle as its only member (see
// handles.hpp), so the two arrays have the same layout.
template <typename Kind>
const typename handle<Kind>::c_type* c_handles(std::span<const handle<Kind>> handles) noexcept {
  return reinterpret_cast<const typename handle<Kind>::c_type*>(handles.data());
}
template <typename Kind>
typename handle<Kind>::c_type* c_handles(std::span<handle<Kind>> handles) noexcept {
  return reinterpret_cast<typename handle<Kind>::c_type*>(handles.data());
}

// The array of an out vector MPI writes into: never null, since an MPI may reject a null
// array even when its length is 0 (Open MPI's MPI_Graph_get with maxedges = 0). MPI writes
// nothing into a 0-length array, so every caller can share one element.
template <typename T>
T* out_array(std::vector<T>& values) noexcept {
  static T none{};
  return values.empty() ? &none : values.data();
}

// Rows of a fixed width (MPI_Group_range_incl's `int ranges[][3]`) as the C array MPI reads.
// std::array<T, N> holds exactly its N elements (checked), so both have the same layout; C
// declares the parameter without const although MPI only reads it.
template <typename T, std::size_t N>
auto c_rows(std::span<const std::array<T, N>> rows) noexcept -> T (*)[N] {
  static_assert(sizeof(std::array<T, N>) == N * sizeof(T));
  return reinterpret_cast<T(*)[N]>(const_cast<std::array<T, N>*>(rows.data()));
}

// A string MPI wrote into `buffer`, `length` characters or up to the first NUL,
// whichever comes first: Open MPI counts the terminating NUL in resultlen of
// MPI_Get_library_version, MPICH does not.
inline std::string written_string(const char* buffer, int length) {
  const std::size_t limit = length > 0 ? static_cast<std::size_t>(length) : 0;
  return std::string(buffer, ::strnlen(buffer, limit));
}

// A caller-provided array of statuses; an empty span means "ignore them".
inline MPI_Status* statuses(std::span<MPI_Status> out) noexcept {
  return out.empty() ? MPI_STATUSES_IGNORE : out.data();
}

}  // namespace detail

// The typed layer's stand-in for `name` where the configured MPI provides none of its C
// functions (templates/typed.hpp.j2): using it is one compile-time error naming them, not
// "no member named" (the MPI 5 ABI's mpi_abi.h lacks the Fortran converters, Open MPI 4.1
// the MPI-4 functions).
#define NAMPI_MPI_UNPROVIDED(name, c_functions)                                       \
  template <typename... Args>                                                         \
  void name(Args&&...) {                                                              \
    static_assert(::nampi::detail::dependent_false<Args...>,                          \
                  "nampi: mpi::" #name                                                \
                  ": the MPI nampi was configured with does not provide " c_functions \
                  " (nampi/config.h lists what it lacks)");                           \
  }
}  // namespace nampi::mpi
