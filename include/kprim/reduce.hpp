#pragma once
/// @file
/// kprim::reduce — combine all elements of a rank-1 View with an associative op.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/reduce_value.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim {

/// Reduces `x` with `op` into the rank-0 View `result` without blocking the host: the value is
/// there once `space` is fenced. `result` may live in any memory space; its value type is the
/// accumulator type (e.g. sum int32 data into an int64 result). An empty `x` gives op's identity.
/// @throws kprim::invalid_argument for an unallocated View or one `space` cannot read.
template <impl::ExecutionSpace Space, impl::AnyView View, impl::AnyView Result, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
void reduce(const Space& space, const View& x, const Result& result, const Op& op = {},
            const Options& options = {}) {
  using T = typename Result::non_const_value_type;
  static_assert(View::rank() == 1, "kprim::reduce: the input must be a rank-1 View");
  static_assert(Result::rank() == 0, "kprim::reduce: the result must be a rank-0 View");
  static_assert(!std::is_const_v<typename Result::value_type>, "kprim::reduce: the result View must not be const");
  static_assert(BinaryOperation<Op, T>, "kprim::reduce: op must provide operator()(T, T) -> T");
  static_assert(HasIdentity<Op, T>, "kprim::reduce: a result View needs an op with identity() (an empty input must "
                                    "have a value); the overloads that return the value take any op");
  constexpr const char* function = "kprim::reduce";
  impl::check_initialized<Space>(function);
  impl::check_view<Space>(function, "input", x);
  impl::check_allocated(function, "result", result);
  impl::run_reduce(function, space, std::int64_t(x.extent(0)), x, op, result, options);
}

namespace impl {
template <class T, class Space, class View, class Op, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
T reduce_checked(const Space& space, const View& x, const Op& op, const Options& options, const T* init) {
  static_assert(View::rank() == 1, "kprim::reduce: the input must be a rank-1 View");
  static_assert(BinaryOperation<Op, T>, "kprim::reduce: op must provide operator()(T, T) -> T");
  constexpr const char* function = "kprim::reduce";
  check_initialized<Space>(function);
  check_view<Space>(function, "input", x);
  return reduce_value<T>(function, space, std::int64_t(x.extent(0)), x, op, options, init);
}
}  // namespace impl

/// Reduces `x` with `op` and returns the value on the host (blocks until it is there). On a GPU
/// the last kernel writes the value straight into pinned host memory (no device-to-host copy),
/// the lowest-latency way to get a scalar back; the View overload above never blocks. An op
/// without identity() (a lambda `a + b`) is fine when `x` is not empty.
/// @throws kprim::invalid_argument as above, and for an empty `x` with an op without identity().
template <impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] typename View::non_const_value_type reduce(const Space& space, const View& x, const Op& op = {},
                                                         const Options& options = {}) {
  return impl::reduce_checked<typename View::non_const_value_type>(space, x, op, options, nullptr);
}

/// Reduces `x` with `op` in the accumulator type Acc and returns the value on the host: each
/// element is converted to Acc before it is combined, so `kprim::reduce<std::int64_t>(space, ints)`
/// sums int32 data without overflow and `kprim::reduce<double>(space, floats)` sums floats in
/// double, without copying the input.
template <class Acc, impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(const Space& space, const View& x, const Op& op = {}, const Options& options = {}) {
  return impl::reduce_checked<Acc>(space, x, op, options, nullptr);
}

/// As std::reduce(first, last, init, op): op(init, x(0), ..., x(n-1)) in the type of `init`,
/// returned on the host. `op` may be any associative functor or lambda, with or without
/// identity(); an empty `x` gives `init`. Ops that do not declare `is_commutative` keep this
/// order; e.g. `kprim::reduce(space, x, 0.0, KOKKOS_LAMBDA(double a, double b) { return a + b; })`.
template <impl::ExecutionSpace Space, impl::AnyView View, class Init, impl::OpArgument Op, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(impl::OpArgument<Init> && BinaryOperation<Op, Init>)
[[nodiscard]] Init reduce(const Space& space, const View& x, const Init& init, const Op& op,
                          const Options& options = {}) {
  return impl::reduce_checked<Init>(space, x, op, options, &init);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, class Init, impl::OpArgument Op, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(impl::OpArgument<Init> && BinaryOperation<Op, Init>)
[[nodiscard]] Init reduce(const View& x, const Init& init, const Op& op, const Options& options = {}) {
  return kprim::reduce(impl::default_instance<View>("kprim::reduce"), x, init, op, options);
}

/// As above, on the View's default execution space instance.
template <class Acc, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(const View& x, const Op& op = {}, const Options& options = {}) {
  return kprim::reduce<Acc>(impl::default_instance<View>("kprim::reduce"), x, op, options);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, impl::AnyView Result, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
void reduce(const View& x, const Result& result, const Op& op = {}, const Options& options = {}) {
  kprim::reduce(impl::default_instance<View>("kprim::reduce"), x, result, op, options);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] typename View::non_const_value_type reduce(const View& x, const Op& op = {},
                                                         const Options& options = {}) {
  return kprim::reduce(impl::default_instance<View>("kprim::reduce"), x, op, options);
}

}  // namespace kprim
