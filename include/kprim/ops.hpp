#pragma once
/// @file
/// Binary operations for kprim's reduce and scan, and the traits that describe them.
///
/// An operation is any copyable functor or lambda with an associative `operator()(a, b)`. It may
/// name its identity element: a member `identity()` returning the value type, or (for ops that
/// work on many types, like the built-in ones) a member template `identity<T>()`. Without one,
/// kprim needs an init value or a non-empty range, as `std::reduce` does.
/// An op may declare `static constexpr bool is_commutative = true;` to allow kprim to
/// combine elements out of order (faster on some spaces). Without it kprim keeps the
/// left-to-right order of the input, so associative but non-commutative ops are exact.

#include <kprim/impl/toolchain_check.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <limits>
#include <type_traits>

namespace kprim {

/// Addition; identity 0. Unsigned integers wrap around (modulo 2^bits, exact in any order);
/// signed integer overflow is the caller's to avoid (sum into a wider accumulator: README,
/// "Guarantees"). Floating point follows IEEE 754: NaN propagates, +inf + -inf is NaN.
struct Sum {
  static constexpr bool is_commutative = true;
  template <class T>
  KOKKOS_FUNCTION static constexpr T identity() { return T(0); }
  template <class T>
  KOKKOS_FUNCTION constexpr T operator()(const T& a, const T& b) const { return a + b; }
};

/// Multiplication; identity 1.
struct Prod {
  static constexpr bool is_commutative = true;
  template <class T>
  KOKKOS_FUNCTION static constexpr T identity() { return T(1); }
  template <class T>
  KOKKOS_FUNCTION constexpr T operator()(const T& a, const T& b) const { return a * b; }
};

/// Minimum; identity is the largest value of T (+inf for floating point), so the
/// minimum of an empty range is that value. A NaN operand makes the result NaN, whichever side it
/// is on (so a reduce or scan that meets a NaN returns one in every order). Which of -0.0 and +0.0
/// is returned when both occur depends on the order (fixed by Determinism::bitwise).
struct Min {
  static constexpr bool is_commutative = true;
  template <class T>
  KOKKOS_FUNCTION static constexpr T identity() {
    // Kokkos' traits for built-in types: std::numeric_limits is host-only under nvcc.
    if constexpr (std::is_floating_point_v<T>) return Kokkos::Experimental::infinity_v<T>;
    else if constexpr (std::is_arithmetic_v<T>) return Kokkos::Experimental::finite_max_v<T>;
    else if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class T>
  KOKKOS_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) return (b < a || b != b) ? b : a;  // b != b: b is NaN
    else return b < a ? b : a;
  }
};

/// Maximum; identity is the lowest value of T (-inf for floating point). NaN and signed zeros
/// as for Min.
struct Max {
  static constexpr bool is_commutative = true;
  template <class T>
  KOKKOS_FUNCTION static constexpr T identity() {
    if constexpr (std::is_floating_point_v<T>) return -Kokkos::Experimental::infinity_v<T>;
    else if constexpr (std::is_arithmetic_v<T>) return Kokkos::Experimental::finite_min_v<T>;
    else if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class T>
  KOKKOS_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) return (a < b || b != b) ? b : a;
    else return a < b ? b : a;
  }
};

/// True when Op combines two values of type T: a copyable functor or lambda with an associative
/// `op(a, b)`. Such an op is enough wherever the answer is defined without an identity (a
/// non-empty range, or an init value, as `std::reduce`).
template <class Op, class T>
concept BinaryOperation = std::copy_constructible<Op> && requires(const Op& op, const T& a, const T& b) {
  { op(a, b) } -> std::convertible_to<T>;
};

/// True when Op also names its identity element for T: a member `identity()`, or a member
/// template `identity<T>()` (the built-in ops).
template <class Op, class T>
concept HasIdentity = requires(const Op& op) { { op.template identity<T>() } -> std::convertible_to<T>; } ||
                      requires(const Op& op) { { op.identity() } -> std::convertible_to<T>; };

/// True when Op is a kprim operation with an identity on values of type T.
template <class Op, class T>
concept Operation = BinaryOperation<Op, T> && HasIdentity<Op, T>;

/// The identity element of `op` for values of type T.
template <class T, class Op>
KOKKOS_FUNCTION constexpr T identity_of(const Op& op) {
  if constexpr (requires { op.template identity<T>(); }) return op.template identity<T>();
  else return op.identity();
}

/// True when Op declares itself commutative (`static constexpr bool is_commutative = true`).
template <class Op>
inline constexpr bool is_commutative_v = [] {
  if constexpr (requires { Op::is_commutative; }) return bool(Op::is_commutative);
  else return false;
}();

}  // namespace kprim
