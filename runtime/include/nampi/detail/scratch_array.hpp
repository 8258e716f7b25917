// Storage for an array a call computes for its own use and never hands out
// (displacements it scans, counts it exchanges): allocated without zeroing,
// since the rule that fills it writes every entry before MPI reads one.
// std::vector<int>(n) would clear the memory first, work a call on the path of
// every inferred v-collective does not need.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "nampi/detail/owned.hpp"

namespace nampi::detail {

template <typename T>
class scratch_array {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "nampi: scratch_array holds counts and displacements only");

 public:
  using value_type = T;
  using nampi_contiguous = void;  // a buffer, known by its type (contiguous.hpp)

  scratch_array() = default;
  explicit scratch_array(std::size_t n)
      : data_(n == 0 ? owned<T[]>() : make_owned_for_overwrite<T[]>(n)), size_(n) {}

  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

 private:
  owned<T[]> data_;
  std::size_t size_ = 0;
};

// Whether an omitted parameter's storage type can be a scratch_array: a
// std::vector of counts or displacements the call does not return.
template <typename Default>
inline constexpr bool scratch_eligible = false;
template <typename T>
inline constexpr bool scratch_eligible<std::vector<T>> =
    std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>;

}  // namespace nampi::detail
