// Reduction operations: std functors and nampi::ops map to builtin MPI_Ops.
// The mapping is chosen at compile time; only the handle is read at run time.
#pragma once

#include <mpi.h>

#include <functional>
#include <type_traits>

#include "nampi/error.hpp"
#include "nampi/handle_registry.hpp"

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

// Marks a user operation as commutative: op(nampi::commutative(f)). Without
// it MPI must assume the order matters (always correct, sometimes slower).
template <typename F>
struct commutative_op {
  using function_type = F;
  F function;
};
template <typename F>
constexpr commutative_op<F> commutative(F function) {
  return {function};
}

namespace detail {

template <typename F>
struct builtin_op : std::false_type {};

#define NAMPI_BUILTIN_OP(functor, mpi_op)           \
  template <typename T>                             \
  struct builtin_op<functor<T>> : std::true_type {  \
    static MPI_Op get() noexcept { return mpi_op; } \
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

// Calls F element-wise: inout[i] = F(in[i], inout[i]), as MPI defines user ops.
template <typename T, typename F>
void apply_user_op(void* in, void* inout, int* length, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *length; ++i) b[i] = static_cast<T>(F{}(a[i], b[i]));
}

// The MPI_Op of one call (a builtin handle, a cached user op, or the caller's).
class op_handle {
 public:
  explicit op_handle(MPI_Op op) noexcept : op_(op) {}
  MPI_Op get() const noexcept { return op_; }

 private:
  MPI_Op op_;
};

// One MPI_Op per (element type, callable, commutativity), created on first use
// (as hand-written code creates its op once) and freed before MPI_Finalize.
template <typename T, typename F, bool Commute>
MPI_Op mpi_user_op() {
  static_assert(std::is_default_constructible_v<F>,
                "nampi: a user operation must be stateless (a lambda without captures)");
  static const MPI_Op op = [] {
    MPI_Op created = MPI_OP_NULL;
    const int code = MPI_Op_create(&apply_user_op<T, F>, Commute ? 1 : 0, &created);
    if (code != MPI_SUCCESS) throw mpi_error("MPI_Op_create", code);
    op_registry().add(created);
    return created;
  }();
  return op;
}

template <typename F>
struct is_commutative_op : std::false_type {};
template <typename F>
struct is_commutative_op<commutative_op<F>> : std::true_type {};

// The MPI_Op for op(...) on elements of type T: a builtin functor (chosen at
// compile time), an MPI_Op handle, or a stateless callable (a user op).
template <typename T, typename F>
op_handle mpi_op(const F& op) {
  if constexpr (std::is_same_v<F, MPI_Op>) {
    return op_handle(op);
  } else if constexpr (builtin_op<F>::value) {
    return op_handle(builtin_op<F>::get());
  } else if constexpr (is_commutative_op<F>::value) {
    return op_handle(mpi_user_op<T, typename F::function_type, true>());
  } else if constexpr (std::is_class_v<F> && std::is_default_constructible_v<F> &&
                       std::is_invocable_v<const F&, const T&, const T&>) {
    // Class types only: a default-constructed function pointer would be null.
    return op_handle(mpi_user_op<T, F, false>());
  } else {
    static_assert(always_false<F>,
                  "nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), "
                  "an MPI_Op, or a "
                  "stateless callable taking two elements (a lambda without captures; wrap a "
                  "function pointer in one)");
    return op_handle(MPI_OP_NULL);
  }
}

}  // namespace detail
}  // namespace nampi
