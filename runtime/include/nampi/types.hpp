// The C++ type -> MPI_Datatype mapping.
//  * arithmetic, bool, std::complex, std::byte and character types map to
//    builtin datatypes;
//  * any other trivially copyable type travels as a contiguous run of bytes,
//    committed on first use and freed by Environment before MPI_Finalize.
#pragma once

#include <mpi.h>

#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "nampi/error.hpp"
#include "nampi/handle_registry.hpp"

namespace nampi {

// A bool that std::vector stores contiguously (std::vector<bool> packs bits and
// has no data()); buffers of bool that a call creates hold these.
struct bool_value {
  bool value = false;
  constexpr bool_value() = default;
  constexpr bool_value(bool b) noexcept : value(b) {}
  constexpr operator bool() const noexcept { return value; }
  friend constexpr bool operator==(bool_value, bool_value) = default;
};
static_assert(sizeof(bool_value) == sizeof(bool), "bool_value must travel as MPI_CXX_BOOL");

// Specialize to send a type with a datatype of your own: `static MPI_Datatype get()`.
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
NAMPI_BUILTIN_TYPE(std::complex<float>, MPI_CXX_FLOAT_COMPLEX);
NAMPI_BUILTIN_TYPE(std::complex<double>, MPI_CXX_DOUBLE_COMPLEX);
NAMPI_BUILTIN_TYPE(std::complex<long double>, MPI_CXX_LONG_DOUBLE_COMPLEX);
NAMPI_BUILTIN_TYPE(std::byte, MPI_BYTE);
#undef NAMPI_BUILTIN_TYPE

inline MPI_Datatype commit_contiguous_bytes(std::size_t bytes) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  call_mpi("MPI_Type_contiguous", MPI_Type_contiguous, static_cast<int>(bytes), MPI_BYTE, &type);
  call_mpi("MPI_Type_commit", MPI_Type_commit, &type);
  type_registry().add(type);
  return type;
}

template <typename T, typename = void>
struct has_user_traits : std::false_type {};
template <typename T>
struct has_user_traits<T, std::void_t<decltype(mpi_type_traits<T>::get())>> : std::true_type {};

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

}  // namespace detail

// True if nampi knows how to send a T.
template <typename T>
inline constexpr bool has_mpi_type =
    detail::builtin_type<T>::value || detail::has_user_traits<T>::value ||
    std::is_trivially_copyable_v<T>;

// The datatype for T. The choice is made at compile time; only the handle is
// read at run time (Open MPI's builtin handles are addresses of globals).
template <typename T>
MPI_Datatype mpi_datatype() {
  using U = std::remove_cv_t<T>;
  if constexpr (!std::is_same_v<T, U>) {
    return mpi_datatype<U>();  // one datatype per type, whatever its qualifiers
  } else if constexpr (detail::builtin_type<U>::value) {
    return detail::builtin_type<U>::get();
  } else if constexpr (detail::has_user_traits<U>::value) {
    return mpi_type_traits<U>::get();
  } else {
    static_assert(
        std::is_trivially_copyable_v<U>,
        "nampi: this type is not trivially copyable; specialize nampi::mpi_type_traits for it");
    static const MPI_Datatype type = detail::commit_contiguous_bytes(sizeof(U));
    return type;
  }
}

}  // namespace nampi
