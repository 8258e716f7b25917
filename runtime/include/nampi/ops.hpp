// Reduction operations: std functors and nampi::ops map to builtin MPI_Ops.
// The mapping is chosen at compile time; only the handle is read at run time.
#pragma once

#include <mpi.h>

#include <functional>
#include <type_traits>

namespace nampi {
namespace ops {

// max<>, min<> and logical_xor<> for any comparable type; the template
// parameter only mirrors std::plus<T> so that both spellings work.
template <typename T = void>
struct max {
  template <typename U>
  constexpr U operator()(const U& a, const U& b) const {
    return a < b ? b : a;
  }
};
template <typename T = void>
struct min {
  template <typename U>
  constexpr U operator()(const U& a, const U& b) const {
    return b < a ? b : a;
  }
};
// std has no logical xor functor.
template <typename T = void>
struct logical_xor {
  template <typename U>
  constexpr bool operator()(const U& a, const U& b) const {
    return !a != !b;
  }
};

}  // namespace ops

namespace detail {

template <typename F>
struct builtin_op : std::false_type {};

#define NAMPI_BUILTIN_OP(functor, mpi_op)                  \
  template <typename T>                                    \
  struct builtin_op<functor<T>> : std::true_type {         \
    static MPI_Op get() noexcept { return mpi_op; }        \
  }

NAMPI_BUILTIN_OP(std::plus, MPI_SUM);
NAMPI_BUILTIN_OP(std::multiplies, MPI_PROD);
NAMPI_BUILTIN_OP(std::logical_and, MPI_LAND);
NAMPI_BUILTIN_OP(std::logical_or, MPI_LOR);
NAMPI_BUILTIN_OP(std::bit_and, MPI_BAND);
NAMPI_BUILTIN_OP(std::bit_or, MPI_BOR);
NAMPI_BUILTIN_OP(std::bit_xor, MPI_BXOR);
NAMPI_BUILTIN_OP(ops::max, MPI_MAX);
NAMPI_BUILTIN_OP(ops::min, MPI_MIN);
NAMPI_BUILTIN_OP(ops::logical_xor, MPI_LXOR);
#undef NAMPI_BUILTIN_OP

// The MPI_Op for an op(...) argument: a builtin functor or an MPI_Op handle.
template <typename>
inline constexpr bool always_false = false;

template <typename F>
MPI_Op mpi_op(const F& op) {
  if constexpr (std::is_same_v<F, MPI_Op>) {
    return op;
  } else if constexpr (builtin_op<F>::value) {
    return builtin_op<F>::get();
  } else {
    static_assert(always_false<F>,
                  "nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, std::logical_and<>, "
                  "std::logical_or<>, std::bit_and<>, std::bit_or<>, std::bit_xor<>, nampi::ops::max<>, "
                  "nampi::ops::min<>, nampi::ops::logical_xor<>) or an MPI_Op");
    return MPI_OP_NULL;
  }
}

}  // namespace detail
}  // namespace nampi
