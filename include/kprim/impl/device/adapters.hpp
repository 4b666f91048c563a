#pragma once
// Device layer: what lets the one engine serve lambdas and ops without an identity.
// - IndexSource: element i is f(i), converted to the accumulator (transform reduce and scans).
// - Sink: an output that is a callable put(i, value) instead of a View. `sink(i) = value` calls
//   it, so every kernel that writes each output once (the look-back scans, the bitwise scan, the
//   CUDA scan) serves it unchanged; the three-phase scan, which writes then reads back, scans
//   into a buffer first (dispatch.hpp).
// - Adjoined / AdjoinIdentity: an op without identity gains one, the "no value yet" state (as
//   std::optional<T> with op extended to it), so the kernels can pad tiles and start folds.

#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl {

/// Element i is T(f(i)), for i in [0, n).
template <class F, class T>
struct IndexSource {
  using non_const_value_type = T;
  F f;
  std::int64_t n;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return T(f(i)); }
  KOKKOS_FUNCTION std::int64_t extent(int) const { return n; }
};

template <class S>
inline constexpr bool is_index_source_v = false;
template <class F, class T>
inline constexpr bool is_index_source_v<IndexSource<F, T>> = true;

/// An output of n elements of T whose element i is handed to put(i, value) once.
template <class T, class Put>
struct Sink {
  using non_const_value_type = T;
  using value_type = T;
  Put put;
  std::int64_t n;

  /// What `sink(i) = value` assigns to.
  struct Slot {
    const Put* put;
    std::int64_t i;
    KOKKOS_FUNCTION const Slot& operator=(const T& value) const {
      (*put)(i, value);
      return *this;
    }
  };
  KOKKOS_FUNCTION Slot operator()(std::int64_t i) const { return {&put, i}; }
  KOKKOS_FUNCTION std::int64_t extent(int) const { return n; }
};

template <class S>
inline constexpr bool is_sink_v = false;
template <class T, class Put>
inline constexpr bool is_sink_v<Sink<T, Put>> = true;

/// A value of T, or none yet (the identity an op without one is given).
template <class T>
struct Adjoined {
  T value;
  bool valid;
  Adjoined() = default;
  KOKKOS_FUNCTION constexpr Adjoined(const T& v, bool has_value) : value(v), valid(has_value) {}
  /// An element: converted to T, present.
  template <class U>
    requires std::is_convertible_v<U, T>
  KOKKOS_FUNCTION constexpr Adjoined(const U& v) : value(T(v)), valid(true) {}
};

/// Op extended to Adjoined<T>: "none" is its identity; otherwise op itself, in the same order.
template <class Op, class T>
struct AdjoinIdentity {
  static constexpr bool is_commutative = is_commutative_v<Op>;
  Op op;
  KOKKOS_FUNCTION constexpr Adjoined<T> identity() const { return Adjoined<T>(T{}, false); }
  KOKKOS_FUNCTION Adjoined<T> operator()(const Adjoined<T>& a, const Adjoined<T>& b) const {
    if (!a.valid) return b;
    if (!b.valid) return a;
    return Adjoined<T>(T(op(a.value, b.value)), true);
  }
};

/// Writes the value part of an Adjoined result into element i of a View (or of another sink).
template <class Out>
struct ValueInto {
  Out out;
  template <class T>
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Adjoined<T>& v) const {
    out(i) = v.value;
  }
};

/// Writes op(init, value): an inclusive scan started from init where the kernel cannot seed it.
template <class Out, class Op, class T>
struct SeededInto {
  Out out;
  Op op;
  T init;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& v) const { out(i) = T(op(init, v)); }
};

/// The accumulator a call runs in: T itself for ops with an identity, Adjoined<T> otherwise.
template <class Op, class T>
using accumulator_t = std::conditional_t<HasIdentity<Op, T>, T, Adjoined<T>>;

/// The op a call runs with: op itself, or op given an identity.
template <class T, class Op>
auto engine_op(const Op& op) {
  if constexpr (HasIdentity<Op, T>) return op;
  else return AdjoinIdentity<Op, T>{op};
}

/// The plain value of an engine result.
template <class T>
KOKKOS_FUNCTION T plain_value(const T& v) {
  return v;
}
template <class T>
KOKKOS_FUNCTION T plain_value(const Adjoined<T>& v) {
  return v.value;
}

}  // namespace kprim::impl
