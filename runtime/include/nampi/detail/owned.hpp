// nampi::detail::owned<T>: a move-only owner of one heap object (or of an array,
// owned<T[]>), what std::unique_ptr is without a deleter parameter. nampi's
// headers use it instead because in C++20 libstdc++'s unique_ptr brings
// <ostream> and the locales with it (for its operator<<), a seventh of what a
// translation unit that only includes nampi would parse (issue 14).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace nampi::detail {

template <typename T>
class owned {
 public:
  owned() noexcept = default;
  explicit owned(T* object) noexcept : object_(object) {}
  owned(owned&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  owned& operator=(owned&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  ~owned() { reset(); }

  T* get() const noexcept { return object_; }
  T& operator*() const noexcept { return *object_; }
  T* operator->() const noexcept { return object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  bool operator==(std::nullptr_t) const noexcept { return object_ == nullptr; }

  void reset() noexcept {
    delete object_;
    object_ = nullptr;
  }
  // Gives the object up: the caller deletes it.
  [[nodiscard]] T* release() noexcept { return std::exchange(object_, nullptr); }

 private:
  T* object_ = nullptr;
};

template <typename T>
class owned<T[]> {
 public:
  owned() noexcept = default;
  explicit owned(T* elements) noexcept : elements_(elements) {}
  owned(owned&& other) noexcept : elements_(std::exchange(other.elements_, nullptr)) {}
  owned& operator=(owned&& other) noexcept {
    if (this != &other) {
      delete[] elements_;
      elements_ = std::exchange(other.elements_, nullptr);
    }
    return *this;
  }
  ~owned() { delete[] elements_; }

  T* get() const noexcept { return elements_; }
  T& operator[](std::size_t i) const noexcept { return elements_[i]; }

 private:
  T* elements_ = nullptr;
};

// A new T built from `args`, owned.
template <typename T, typename... Args>
  requires(!std::is_array_v<T>)
owned<T> make_owned(Args&&... args) {
  return owned<T>(new T(std::forward<Args>(args)...));
}

// n elements of T left uninitialized (T trivial: counts and displacements to be
// written), owned.
template <typename T>
  requires std::is_unbounded_array_v<T>
owned<T> make_owned_for_overwrite(std::size_t n) {
  return owned<T>(new std::remove_extent_t<T>[n]);
}

}  // namespace nampi::detail
