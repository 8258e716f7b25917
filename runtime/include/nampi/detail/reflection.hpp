// Aggregate reflection, C++20 only: the number of members of an aggregate and
// references to them, without macros or annotations. Used by nampi::struct_type.
//
// Counting: an aggregate T with N members can be initialized from N
// brace-enclosed values that convert to (nearly) anything, T{{any}, ..., {any}},
// and not from N + 1. Each value is wrapped in braces so that it initializes exactly
// one member (also an array member, which bare values would fill one element
// at a time by brace elision).
// Access: structured bindings of N names, written out for N = 1..32.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace nampi::detail {

// The most members an aggregate may have for struct_type (structured bindings
// are written out up to this count).
inline constexpr std::size_t max_reflected_members = 32;

// Converts to any member type; only used in unevaluated initializations.
// `member{any}` must pick exactly one way to build the member, so a class that
// can be built from a number (std::complex) is built that way and not also
// through a conversion to the class itself.
struct any_member {
  template <typename U>
    requires(std::is_scalar_v<U> || (std::is_class_v<U> && !std::is_constructible_v<U, int> &&
                                     !std::is_constructible_v<U, double>))
  constexpr operator U() const noexcept;
};

template <std::size_t>
using any_member_at = any_member;

template <typename T, std::size_t... I>
constexpr bool initializable_from(std::index_sequence<I...>) {
  return requires { T{{any_member_at<I>{}}...}; };
}

// The number of members of aggregate T; max_reflected_members + 1 means "more".
template <typename T, std::size_t N = 0>
constexpr std::size_t count_members() {
  if constexpr (N > max_reflected_members ||
                !initializable_from<T>(std::make_index_sequence<N + 1>{}))
    return N;
  else
    return count_members<T, N + 1>();
}

template <typename T>
inline constexpr std::size_t member_count = count_members<T>();

// A tuple of references to the N members of `object`, in declaration order.
template <std::size_t N, typename T>
constexpr auto tie_members(T& object) {
  if constexpr (N == 1) {
    auto& [m0] = object;
    return std::tie(m0);
  } else if constexpr (N == 2) {
    auto& [m0, m1] = object;
    return std::tie(m0, m1);
  } else if constexpr (N == 3) {
    auto& [m0, m1, m2] = object;
    return std::tie(m0, m1, m2);
  } else if constexpr (N == 4) {
    auto& [m0, m1, m2, m3] = object;
    return std::tie(m0, m1, m2, m3);
  } else if constexpr (N == 5) {
    auto& [m0, m1, m2, m3, m4] = object;
    return std::tie(m0, m1, m2, m3, m4);
  } else if constexpr (N == 6) {
    auto& [m0, m1, m2, m3, m4, m5] = object;
    return std::tie(m0, m1, m2, m3, m4, m5);
  } else if constexpr (N == 7) {
    auto& [m0, m1, m2, m3, m4, m5, m6] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6);
  } else if constexpr (N == 8) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7);
  } else if constexpr (N == 9) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8);
  } else if constexpr (N == 10) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9);
  } else if constexpr (N == 11) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10);
  } else if constexpr (N == 12) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11);
  } else if constexpr (N == 13) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12);
  } else if constexpr (N == 14) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13);
  } else if constexpr (N == 15) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14);
  } else if constexpr (N == 16) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15);
  } else if constexpr (N == 17) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16);
  } else if constexpr (N == 18) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17);
  } else if constexpr (N == 19) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18] =
        object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18);
  } else if constexpr (N == 20) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18,
           m19] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19);
  } else if constexpr (N == 21) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20);
  } else if constexpr (N == 22) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21);
  } else if constexpr (N == 23) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22);
  } else if constexpr (N == 24) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23);
  } else if constexpr (N == 25) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24);
  } else if constexpr (N == 26) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25);
  } else if constexpr (N == 27) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26);
  } else if constexpr (N == 28) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26, m27] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26, m27);
  } else if constexpr (N == 29) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26, m27, m28] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28);
  } else if constexpr (N == 30) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26, m27, m28, m29] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29);
  } else if constexpr (N == 31) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30);
  } else if constexpr (N == 32) {
    auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
           m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31] = object;
    return std::tie(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17,
                    m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31);
  } else {
    static_assert(N <= max_reflected_members, "nampi internal: too many members to reflect");
    return std::tie();
  }
}

}  // namespace nampi::detail
