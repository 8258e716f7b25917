// The C++ type -> MPI_Datatype mapping, decided at compile time:
//  * arithmetic, bool, std::complex, std::byte and character types map to
//    builtin datatypes, enums to the datatype of their underlying type;
//  * nampi::type_traits<T> (or the older mpi_type_traits<T>) gives a datatype
//    of the user's choice;
//  * nampi::struct_type<T> opts an aggregate in to a member-by-member struct
//    type; std::pair and std::tuple always travel that way, std::array as a
//    contiguous run of its element's type;
//  * any other trivially copyable type travels as a contiguous run of bytes.
// Every type nampi creates is committed once, on first use, and freed by
// Environment before MPI_Finalize.
#pragma once

#include <mpi.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/handle_registry.hpp"
#include "nampi/detail/mpi/smpi_datatypes.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/error.hpp"
#include "nampi/struct_type.hpp"

namespace nampi {

// A bool that std::vector stores contiguously (std::vector<bool> packs bits and
// has no data()); buffers of bool that a call creates hold these.
struct bool_value {
  bool value = false;
  constexpr bool_value() = default;
  constexpr bool_value(bool b) noexcept : value(b) {}
  constexpr operator bool() const noexcept { return value; }
  friend constexpr bool operator==(bool_value, bool_value) = default;
  // Compared with a bool as a bool is (`received[0] == true`); without it both
  // this type's == and bool's built-in one would fit, and the compare would not compile.
  friend constexpr bool operator==(bool_value a, bool b) noexcept { return a.value == b; }
};
static_assert(sizeof(bool_value) == sizeof(bool), "bool_value must travel as MPI_CXX_BOOL");

// Specialize to send a type with a datatype of your own:
//   static MPI_Datatype data_type();  // the datatype of one T
//   static constexpr bool must_commit;
// With must_commit, data_type() returns a new uncommitted type: nampi calls it
// once, commits the result and frees it before MPI_Finalize. Without it, the
// handle is the user's (a builtin, or a type the user commits and frees) and
// data_type() is called at every use.
template <typename T>
struct type_traits;

// The older spelling of type_traits: `static MPI_Datatype get()`, a handle the
// user owns (as type_traits with must_commit = false).
template <typename T>
struct mpi_type_traits;

namespace detail {

template <typename T>
struct builtin_type : std::false_type {};

#define NAMPI_BUILTIN_TYPE(cpp_type, mpi_type)              \
  template <>                                               \
  struct builtin_type<cpp_type> : std::true_type {          \
    static MPI_Datatype get() noexcept { return mpi_type; } \
  }

NAMPI_BUILTIN_TYPE(char, MPI_CHAR);
NAMPI_BUILTIN_TYPE(signed char, MPI_SIGNED_CHAR);
NAMPI_BUILTIN_TYPE(unsigned char, MPI_UNSIGNED_CHAR);
NAMPI_BUILTIN_TYPE(wchar_t, MPI_WCHAR);
NAMPI_BUILTIN_TYPE(char8_t, MPI_UINT8_T);
NAMPI_BUILTIN_TYPE(char16_t, MPI_UINT16_T);
NAMPI_BUILTIN_TYPE(char32_t, MPI_UINT32_T);
NAMPI_BUILTIN_TYPE(short, MPI_SHORT);
NAMPI_BUILTIN_TYPE(unsigned short, MPI_UNSIGNED_SHORT);
NAMPI_BUILTIN_TYPE(int, MPI_INT);
NAMPI_BUILTIN_TYPE(unsigned, MPI_UNSIGNED);
NAMPI_BUILTIN_TYPE(long, MPI_LONG);
NAMPI_BUILTIN_TYPE(unsigned long, MPI_UNSIGNED_LONG);
NAMPI_BUILTIN_TYPE(long long, MPI_LONG_LONG);
NAMPI_BUILTIN_TYPE(unsigned long long, MPI_UNSIGNED_LONG_LONG);
NAMPI_BUILTIN_TYPE(float, MPI_FLOAT);
NAMPI_BUILTIN_TYPE(double, MPI_DOUBLE);
NAMPI_BUILTIN_TYPE(long double, MPI_LONG_DOUBLE);
NAMPI_BUILTIN_TYPE(bool, MPI_CXX_BOOL);
NAMPI_BUILTIN_TYPE(bool_value, MPI_CXX_BOOL);
NAMPI_BUILTIN_TYPE(std::byte, MPI_BYTE);
#undef NAMPI_BUILTIN_TYPE

// std::complex<F> for F float, double or long double, recognised by its shape
// (value_type F, real() and imag(), two Fs in a row) rather than by its name: a
// program that uses std::complex includes <complex> itself, and nampi does not
// make every other program parse it (and the <sstream> it pulls in).
template <typename F>
MPI_Datatype complex_datatype() noexcept {
  if constexpr (std::is_same_v<F, float>)
    return MPI_CXX_FLOAT_COMPLEX;
  else if constexpr (std::is_same_v<F, double>)
    return MPI_CXX_DOUBLE_COMPLEX;
  else
    return MPI_CXX_LONG_DOUBLE_COMPLEX;
}

template <template <typename> class C, typename F>
concept complex_like =
    (std::is_same_v<F, float> || std::is_same_v<F, double> || std::is_same_v<F, long double>) &&
    std::is_same_v<typename C<F>::value_type, F> && sizeof(C<F>) == 2 * sizeof(F) &&
    std::is_trivially_copyable_v<C<F>> && requires(const C<F>& z) {
      { z.real() } -> std::same_as<F>;
      { z.imag() } -> std::same_as<F>;
    };

template <template <typename> class C, typename F>
  requires complex_like<C, F>
struct builtin_type<C<F>> : std::true_type {
  static MPI_Datatype get() noexcept { return complex_datatype<F>(); }
};

#if !NAMPI_DEFINE_OUT_OF_LINE
NAMPI_OUT_OF_LINE MPI_Datatype commit_contiguous_bytes(std::size_t bytes);
#else
NAMPI_OUT_OF_LINE MPI_Datatype commit_contiguous_bytes(std::size_t bytes) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  call_mpi("MPI_Type_contiguous", MPI_Type_contiguous, static_cast<int>(bytes), MPI_BYTE, &type);
  call_mpi("MPI_Type_commit", MPI_Type_commit, &type);
  type_registry().add(type);
  return type;
}
#endif

template <typename T>
concept has_type_traits = requires {
  { type_traits<T>::data_type() } -> std::convertible_to<MPI_Datatype>;
  { type_traits<T>::must_commit } -> std::convertible_to<bool>;
};

template <typename T>
concept has_legacy_traits = requires {
  { mpi_type_traits<T>::get() } -> std::convertible_to<MPI_Datatype>;
};

template <typename T>
struct has_user_traits : std::bool_constant<has_type_traits<T> || has_legacy_traits<T>> {};

template <typename T>
inline constexpr bool is_std_array = false;
template <typename E, std::size_t N>
inline constexpr bool is_std_array<std::array<E, N>> = true;

// Commits a user type_traits type (must_commit) and registers it for freeing.
inline MPI_Datatype commit_user_type(MPI_Datatype type) {
  call_mpi("MPI_Type_commit", MPI_Type_commit, &type);
  type_registry().add(type);
  return type;
}

inline MPI_Datatype commit_array(MPI_Datatype element, std::size_t n) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  call_mpi("MPI_Type_contiguous", MPI_Type_contiguous, static_cast<int>(n), element, &type);
  call_mpi("MPI_Type_commit", MPI_Type_commit, &type);
  type_registry().add(type);
  return type;
}

template <typename T>
constexpr bool supported();

template <typename Tuple, std::size_t... I>
constexpr bool all_supported(std::index_sequence<I...>) {
  return (supported<std::tuple_element_t<I, Tuple>>() && ...);
}

// The container a call creates for elements of type T.
template <typename T>
struct default_container {
  using type = std::vector<T>;
};
template <>
struct default_container<bool> {
  using type = std::vector<bool_value>;
};
template <typename T>
using default_container_t = typename default_container<T>::type;

// The container a call creates for the one block of elements it receives
// (scatterv's share): the same, unless the elements say otherwise (the bytes
// of a serialized value become one value, serialization.hpp).
template <typename T>
struct block_container : default_container<T> {};
template <typename T>
using block_container_t = typename block_container<T>::type;

}  // namespace detail

namespace detail {

// Whether nampi knows how to send a T (the same order as mpi_datatype below).
template <typename T>
constexpr bool supported() {
  using U = std::remove_cv_t<T>;
  if constexpr (builtin_type<U>::value || has_user_traits<U>::value || std::is_enum_v<U>)
    return true;
  else if constexpr (struct_type<U>::value)
    return std::is_aggregate_v<U>;  // members are checked when the type is built
  else if constexpr (is_std_array<U>)
    return std::tuple_size_v<U> > 0 && supported<typename U::value_type>();
  else if constexpr (is_pair<U> || is_tuple<U>)
    return std::tuple_size_v<U> > 0 &&
           all_supported<U>(std::make_index_sequence<std::tuple_size_v<U>>{});
  else
    return std::is_trivially_copyable_v<U>;
}

}  // namespace detail

// True if nampi knows how to send a T.
template <typename T>
inline constexpr bool has_mpi_type = detail::supported<T>();

// The datatype for T. The choice is made at compile time; only the handle is
// read at run time (Open MPI's builtin handles are addresses of globals).
template <typename T>
MPI_Datatype mpi_datatype() {
  using U = std::remove_cv_t<T>;
  if constexpr (!std::is_same_v<T, U>) {
    return mpi_datatype<U>();  // one datatype per type, whatever its qualifiers
  } else if constexpr (detail::builtin_type<U>::value) {
    return detail::builtin_type<U>::get();
  } else if constexpr (detail::has_type_traits<U>) {
    if constexpr (type_traits<U>::must_commit) {
      static const MPI_Datatype type = detail::commit_user_type(type_traits<U>::data_type());
      return type;
    } else {
      return type_traits<U>::data_type();
    }
  } else if constexpr (detail::has_legacy_traits<U>) {
    return mpi_type_traits<U>::get();
  } else if constexpr (std::is_enum_v<U>) {
    return mpi_datatype<std::underlying_type_t<U>>();
  } else if constexpr (struct_type<U>::value) {
    return detail::reflected_datatype<U>();
  } else if constexpr (detail::is_pair<U> || detail::is_tuple<U>) {
    return detail::struct_datatype<U>();
  } else if constexpr (detail::is_std_array<U> && detail::supported<U>()) {
    static const MPI_Datatype type =
        detail::commit_array(mpi_datatype<typename U::value_type>(), std::tuple_size_v<U>);
    return type;
  } else if constexpr (std::is_trivially_copyable_v<U>) {
    static const MPI_Datatype type = detail::commit_contiguous_bytes(sizeof(U));
    return type;
  } else {
    static_assert(std::is_trivially_copyable_v<U>,
                  "nampi: this type is not trivially copyable and has no MPI datatype: opt in with "
                  "nampi::struct_type or specialize nampi::type_traits for it, or send it "
                  "serialized with nampi::as_serialized");
    return MPI_DATATYPE_NULL;
  }
}

}  // namespace nampi
