// A user operation fits the elements of its call. MPI hands a user op the elements as they are,
// and nampi calls the callable on them: op([](int a, int b) { return a + b; }) on doubles would
// convert each element to int and back, so 1.5 + 1.5 gives 2. A call refuses such an op at
// compile time: its generated checks (generator/checks.py, generator/plugins.py) assert the
// variable templates below, whose message names the call and 'op' and whose condition names the
// two types. A static_assert message is a literal until C++26 (see taken.hpp), so GCC prints
//   error: static assertion failed: nampi: allreduce_single: parameter 'op': the operation
//          takes another type than the elements (the note names both)
//   note: 'nampi::detail::the_operation_takes<int>::the_elements_are<double>' evaluates to false
// (Clang: "... due to requirement '...'" on the same line).
//
// An MPI_Op and a builtin functor (std::plus<int> too: it maps to MPI_SUM, which MPI applies to
// the buffer's own datatype) are not checked, nor is a callable whose parameter types a call
// cannot read (a generic lambda, an overloaded operator()): it takes the elements as they are.
#pragma once

#include <cstddef>
#include <type_traits>

#include "nampi/detail/buffer_kind.hpp"
#include "nampi/detail/contiguous.hpp"
#include "nampi/ops.hpp"
#include "nampi/parameter.hpp"

namespace nampi::detail {

// The two parameter types of a callable with one signature (cv and references removed): a
// function, a function pointer, or a class with one non-template operator() (a lambda with
// typed parameters, std::function). `known` is false for any other callable, and for one that
// does not take exactly two.
template <typename F>
struct binary_signature {
  static constexpr bool known = false;
  using first = void;
  using second = void;
};
template <typename R, typename A, typename B>
struct binary_signature<R(A, B)> {
  static constexpr bool known = true;
  using first = std::remove_cvref_t<A>;
  using second = std::remove_cvref_t<B>;
};
template <typename R, typename A, typename B>
struct binary_signature<R(A, B) noexcept> : binary_signature<R(A, B)> {};
template <typename F>
  requires std::is_function_v<F>
struct binary_signature<F*> : binary_signature<F> {};

// operator() as a member function pointer: const or not (a mutable lambda), noexcept or not.
template <typename M>
struct member_signature {
  using type = void;
};
template <typename R, typename C, typename A, typename B>
struct member_signature<R (C::*)(A, B)> {
  using type = R(A, B);
};
template <typename R, typename C, typename A, typename B>
struct member_signature<R (C::*)(A, B) const> {
  using type = R(A, B);
};
template <typename R, typename C, typename A, typename B>
struct member_signature<R (C::*)(A, B) noexcept> {
  using type = R(A, B);
};
template <typename R, typename C, typename A, typename B>
struct member_signature<R (C::*)(A, B) const noexcept> {
  using type = R(A, B);
};
template <typename F>
  requires std::is_class_v<F> && requires { &F::operator(); }
struct binary_signature<F>
    : binary_signature<typename member_signature<decltype(&F::operator())>::type> {};

// The user callable an op(...) argument holds (commutative_op unwrapped), or void where MPI
// applies the op itself (an MPI_Op, a builtin functor) or op is not given.
template <typename F>
struct user_callable {
  using type = std::conditional_t<std::is_same_v<F, MPI_Op> || builtin_op<F>::value, void, F>;
};
template <typename F>
struct user_callable<commutative_op<F>> {
  using type = F;
};

template <typename... Args>
constexpr auto given_callable() {
  constexpr std::size_t i = index_of<param_id::op, Args...>();
  if constexpr (i < sizeof...(Args)) {
    using F = std::remove_cvref_t<typename std::remove_cvref_t<nth_t<i, Args...>>::storage_type>;
    return std::type_identity<typename user_callable<F>::type>{};
  } else {
    return std::type_identity<void>{};
  }
}

// Whether G is called on two elements of E as nampi calls it (user_ops.hpp, apply_elements:
// on the elements MPI passes, const unless G's operator() is not), and what it returns then.
template <typename G, typename E>
struct call_on_elements {
  static constexpr bool as_const = std::is_invocable_v<const G&, const E&, const E&>;
  static constexpr bool callable = as_const || std::is_invocable_v<G&, const E&, const E&>;
};
template <typename G, typename E, bool = call_on_elements<G, E>::as_const>
struct result_on_elements {
  using type = std::invoke_result_t<const G&, const E&, const E&>;
};
template <typename G, typename E>
struct result_on_elements<G, E, false> {
  using type = std::invoke_result_t<G&, const E&, const E&>;
};

// What a call knows of its op F on elements E, each check's types chosen so that a check passes
// where an earlier one failed or there is nothing to check (E or F void): one message per misuse.
template <typename E, typename F>
struct op_fit {
  using elements = E;
  static constexpr bool checked = !std::is_void_v<E> && !std::is_void_v<F>;
  // Stand-ins where nothing is checked, so that no type below is ill-formed (const void&).
  using G = std::conditional_t<checked, F, int (*)(int, int)>;
  using V = std::conditional_t<checked, E, int>;
  using signature = binary_signature<G>;
  // The operation's first parameter type that is not E; E where both are, or unknown.
  using takes =
      std::conditional_t<!checked || !signature::known, E,
                         std::conditional_t<!std::is_same_v<typename signature::first, V>,
                                            typename signature::first, typename signature::second>>;
  static constexpr bool typed_ok = std::is_same_v<takes, E>;
  static constexpr bool callable = !checked || !typed_ok || call_on_elements<G, V>::callable;
  using operation = std::conditional_t<callable, void, F>;
  using returns =
      typename std::conditional_t<!checked || !typed_ok || !callable, std::type_identity<E>,
                                  result_on_elements<G, V>>::type;
};

template <auto ElementId, typename... Args>
using op_fit_of = op_fit<std::remove_cv_t<typename decltype(element_of_param<ElementId, Args...>())::type>,
                         typename decltype(given_callable<Args...>())::type>;

// The conditions, named so that the compiler's note reads as the reason; a generated check
// spells out, say, the_operation_takes<op_fit_of<...>::takes>::the_elements_are<...::elements>
// (generator/checks.py: op_checks), so that the note shows the two types.
template <typename Takes>
struct the_operation_takes {
  template <typename Elements>
  static constexpr bool the_elements_are = std::is_same_v<Takes, Elements>;
};
template <typename Returns>
struct the_operation_returns {
  template <typename Elements>
  static constexpr bool convertible_to =
      std::is_void_v<Elements> || std::is_convertible_v<Returns, Elements>;
};
template <typename Operation>
struct the_operation {
  template <typename Elements>
  static constexpr bool combines_two = std::is_void_v<Operation>;
};

// Short spellings for the generated checks (the note shows what they stand for).
template <auto Id, typename... Args>
using op_elements = typename op_fit_of<Id, Args...>::elements;
template <auto Id, typename... Args>
using operation_taking = the_operation_takes<typename op_fit_of<Id, Args...>::takes>;
template <auto Id, typename... Args>
using operation_of = the_operation<typename op_fit_of<Id, Args...>::operation>;
template <auto Id, typename... Args>
using operation_returning = the_operation_returns<typename op_fit_of<Id, Args...>::returns>;

}  // namespace nampi::detail
