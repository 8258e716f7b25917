// A value read and written atomically: the four operations nampi needs of
// std::atomic, without <atomic>. That header alone adds 17M of GCC's 121M to a
// unit that only includes nampi (about a seventh of its compile time, issue 14),
// and nampi uses it for a handful of caches and flags. With GCC and Clang (and
// the compilers that follow them) the cell is made of the __atomic builtins that
// std::atomic itself is made of; elsewhere it wraps std::atomic. Every operation
// is sequentially consistent: none of them is on a path where a weaker order
// would be measurable.
#pragma once

#include <type_traits>

#if !defined(__GNUC__)
#include <atomic>
#endif

namespace nampi::detail {

template <typename T>
class atomic_cell {
  static_assert(std::is_trivially_copyable_v<T>, "atomic_cell holds a trivially copyable value");

 public:
  constexpr atomic_cell() noexcept : value_{} {}
  constexpr explicit atomic_cell(T value) noexcept : value_(value) {}
  atomic_cell(const atomic_cell&) = delete;
  atomic_cell& operator=(const atomic_cell&) = delete;

#if defined(__GNUC__)
  T load() const noexcept {
    T out;
    __atomic_load(&value_, &out, __ATOMIC_SEQ_CST);
    return out;
  }
  void store(T value) noexcept { __atomic_store(&value_, &value, __ATOMIC_SEQ_CST); }
  T exchange(T value) noexcept {
    T out;
    __atomic_exchange(&value_, &value, &out, __ATOMIC_SEQ_CST);
    return out;
  }
  // As std::atomic's compare_exchange_strong: on failure `expected` gets the value found.
  bool compare_exchange(T& expected, T desired) noexcept {
    return __atomic_compare_exchange(&value_, &expected, &desired, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
  }
  // As std::atomic's fetch_add (integers only).
  T fetch_add(T delta) noexcept { return __atomic_fetch_add(&value_, delta, __ATOMIC_SEQ_CST); }

 private:
  T value_;
#else
  T load() const noexcept { return value_.load(); }
  void store(T value) noexcept { value_.store(value); }
  T exchange(T value) noexcept { return value_.exchange(value); }
  bool compare_exchange(T& expected, T desired) noexcept {
    return value_.compare_exchange_strong(expected, desired);
  }
  T fetch_add(T delta) noexcept { return value_.fetch_add(delta); }

 private:
  std::atomic<T> value_;
#endif
};

// A flag cell held as a spin lock while this lives: for a lookup's worth of work that threads
// of MPI_THREAD_MULTIPLE may do at once (own_context's registry, datatype_facts' attributes).
class spin_guard {
 public:
  explicit spin_guard(atomic_cell<bool>& flag) noexcept : flag_(flag) {
    while (flag_.exchange(true)) {
    }
  }
  ~spin_guard() { flag_.store(false); }
  spin_guard(const spin_guard&) = delete;
  spin_guard& operator=(const spin_guard&) = delete;

 private:
  atomic_cell<bool>& flag_;
};

}  // namespace nampi::detail
