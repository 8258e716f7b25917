// Reduction operations: std functors and nampi::ops map to builtin MPI_Ops
// (chosen at compile time; only the handle is read at run time); any other
// callable becomes a user MPI_Op (user_ops.hpp).
#pragma once

#include <mpi.h>

#include <type_traits>
#include <utility>

#include "nampi/detail/std_parts.hpp"
#include "nampi/detail/user_ops.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"

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

// Commutativity of a user operation. Without a mark MPI must assume the order
// matters (always correct, sometimes slower):
//   op(f, nampi::commutative)  or  op(nampi::commutative(f))
//   op(f, nampi::non_commutative)  (the same as op(f))
template <typename F>
struct commutative_op {
  using function_type = F;
  F function;
};
struct commutative_t {
  template <typename F>
  constexpr commutative_op<std::decay_t<F>> operator()(F&& function) const {
    return {std::forward<F>(function)};
  }
};
inline constexpr commutative_t commutative{};
struct non_commutative_t {};
inline constexpr non_commutative_t non_commutative{};

namespace detail {

// Never defined: calling it stops a compile-time evaluation (see op_constant).
void integer_given_to_op_is_not_an_MPI_Op();

// An MPI_Op prvalue where MPI_Op is an integer (MPICH): MPI_SUM and 42 have
// the same type, so the value decides, at compile time. A predefined op
// passes; anything else (an int literal) stops the compile at the call below,
// whose line (and comment) the compiler shows.
// An MPI_Op computed at run time passes as a variable (lvalue), which the
// generated op(T&&) takes.
// A template on the handle type, instantiated only where MPI_Op is an integer: elsewhere (Open
// MPI's pointers, the MPI 5 ABI's `((MPI_Op)0x21)`) the constants are not constant expressions
// of a pointer type.
template <typename Handle>
struct op_constant {
  Handle value;
  consteval op_constant(Handle v) : value(v) {
    if (!(v == MPI_MAX || v == MPI_MIN || v == MPI_SUM || v == MPI_PROD || v == MPI_LAND ||
          v == MPI_BAND || v == MPI_LOR || v == MPI_BOR || v == MPI_LXOR || v == MPI_BXOR ||
          v == MPI_MAXLOC || v == MPI_MINLOC || v == MPI_REPLACE || v == MPI_NO_OP))
      integer_given_to_op_is_not_an_MPI_Op();  // nampi: op: an integer is not an MPI_Op
  }
};

}  // namespace detail

namespace params {
// An MPI_Op constant where MPI_Op is an integer (see detail::op_constant).
template <typename Handle = MPI_Op>  // not deduced: the argument converts to op_constant<MPI_Op>
  requires std::is_integral_v<Handle>
constexpr auto op(std::type_identity_t<detail::op_constant<Handle>> constant) {
  return detail::named<param_id::op, detail::role::in, MPI_Op, detail::policy_unspecified>{
      constant.value};
}
template <typename F>
constexpr auto op(F&& function, commutative_t) {
  return op(commutative(std::forward<F>(function)));
}
template <typename F>
constexpr auto op(F&& function, non_commutative_t) {
  return op(std::forward<F>(function));
}
}  // namespace params

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

// The MPI_Op of one call (a builtin handle, a user op, or the caller's).
class op_handle {
 public:
  explicit op_handle(MPI_Op op) noexcept : op_(op) {}
  MPI_Op mpi_handle() const noexcept { return op_; }
  MPI_Op get() const noexcept { return op_; }  // the same, by its older name

 private:
  MPI_Op op_;
};

template <typename F>
struct is_commutative_op : std::false_type {};
template <typename F>
struct is_commutative_op<commutative_op<F>> : std::true_type {};

// The callable of op(...) for an algorithm that applies it itself (a plugin's): a mark of
// commutativity unwrapped, as such an algorithm fixes the order anyway.
template <typename Op>
constexpr decltype(auto) op_function(Op& op) noexcept {
  if constexpr (is_commutative_op<std::remove_cv_t<Op>>::value)
    return (op.function);
  else
    return (op);
}

// A user callable on elements T: stateless ones share one MPI_Op per type;
// others lease an op table entry for the call (user_ops.hpp).
template <typename T, typename F, bool Commute>
MPI_Op user_op(const F& function, op_lease& lease) {
  if constexpr (!std::is_invocable_r_v<T, const F&, const T&, const T&> &&
                !std::is_invocable_r_v<T, F&, const T&, const T&>) {
    static_assert(always_false<F>,
                  "nampi: op(...) takes a builtin functor (std::plus<>, std::multiplies<>, ...), "
                  "an MPI_Op, or a callable that combines two elements into one (a lambda, "
                  "function object, function pointer or std::function)");
    return MPI_OP_NULL;
  } else if constexpr (std::is_empty_v<F> && std::is_default_constructible_v<F>) {
    return stateless_user_op<T, F, Commute>();
  } else {
    return lease.acquire<T, F, Commute>(function);
  }
}

// The MPI_Op for op(...) on elements of type T: an MPI_Op handle, a builtin
// functor (chosen at compile time), or a user callable. `lease` is the call's:
// it holds a stateful callable's table entry until the call's slots go away.
template <typename T, typename F>
op_handle mpi_op(const F& op, op_lease& lease) {
  if constexpr (std::is_same_v<F, MPI_Op>) {
    return op_handle(op);
  } else if constexpr (builtin_op<F>::value) {
    return op_handle(builtin_op<F>::get());
  } else if constexpr (is_commutative_op<F>::value) {
    return op_handle(user_op<T, typename F::function_type, true>(op.function, lease));
  } else {
    return op_handle(user_op<T, F, false>(op, lease));
  }
}

// The op parameter (its slot carries a lease, see slot.hpp).
template <auto Id>
inline constexpr bool is_op_param = false;
template <>
inline constexpr bool is_op_param<param_id::op> = true;

}  // namespace detail
}  // namespace nampi
