// nampi::detail::trivial_vector<T>: a growable array of trivially copyable values for nampi's
// own bookkeeping (the collectives in flight at a context, the handles to free before
// MPI_Finalize, a round's requests, the claims of a run of tasks). It has what that
// bookkeeping uses of std::vector, and grows in one untyped function for every element type.
//
// Why not std::vector: that bookkeeping is non-template inline code, which every unit that
// includes nampi compiles whether it calls it or not, and each element type's push_back,
// insert or erase instantiated about fifty functions of <vector> there (measured with
// callgrind on cc1plus: about 15 million instructions per element type and operation).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "nampi/detail/out_of_line.hpp"

namespace nampi::detail {

// Room for at least `needed` elements of `element_size` bytes: `data` (from malloc, or null)
// reallocated, its `capacity` updated. Out of line: one copy serves every element type.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE void* grow_trivial_array(void* data, std::size_t needed,
                                                             std::size_t& capacity,
                                                             std::size_t element_size);
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE void* grow_trivial_array(void* data, std::size_t needed,
                                                             std::size_t& capacity,
                                                             std::size_t element_size) {
  std::size_t next = capacity < 4 ? 4 : capacity * 2;
  if (next < needed) next = needed;
  if (next > static_cast<std::size_t>(-1) / element_size) throw std::bad_alloc();
  void* grown = std::realloc(data, next * element_size);
  if (grown == nullptr) throw std::bad_alloc();
  capacity = next;
  return grown;
}
#endif

template <typename T>
class trivial_vector {
  // Elements are moved by realloc and memmove, which needs values MPI and nampi copy as bytes.
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "trivial_vector holds trivially copyable values only");
  static_assert(alignof(T) <= alignof(std::max_align_t), "malloc's alignment must do");

 public:
  using value_type = T;

  trivial_vector() noexcept = default;
  // n copies of `value`.
  trivial_vector(std::size_t n, const T& value) {
    if (n == 0) return;
    grow(n);
    for (std::size_t i = 0; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  trivial_vector(const trivial_vector&) = delete;
  trivial_vector& operator=(const trivial_vector&) = delete;
  trivial_vector(trivial_vector&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  trivial_vector& operator=(trivial_vector&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~trivial_vector() { std::free(data_); }

  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = value;
  }
  void pop_back() noexcept { --size_; }
  // `value` before the element at `at` (at == size(): at the end).
  void insert(std::size_t at, const T& value) {
    if (size_ == capacity_) grow(size_ + 1);
    std::memmove(static_cast<void*>(data_ + at + 1), data_ + at, (size_ - at) * sizeof(T));
    data_[at] = value;
    ++size_;
  }
  // Removes the elements for which `pred` holds, keeping the others' order.
  template <typename Pred>
  void erase_if(Pred pred) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < size_; ++i)
      if (!pred(data_[i])) data_[kept++] = data_[i];
    size_ = kept;
  }
  // Copies of `first`..`last` in place of the elements held.
  void assign(const T* first, const T* last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (n > capacity_) grow(n);
    if (n != 0) std::memcpy(static_cast<void*>(data_), first, n * sizeof(T));
    size_ = n;
  }
  void clear() noexcept { size_ = 0; }

 private:
  void grow(std::size_t needed) {
    data_ = static_cast<T*>(grow_trivial_array(data_, needed, capacity_, sizeof(T)));
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace nampi::detail
