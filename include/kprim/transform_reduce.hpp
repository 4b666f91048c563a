#pragma once
/// @file
/// kprim::transform_reduce — reduce values computed per index (a lambda) or per element of one or
/// two Views, without an input array: `parallel_reduce(n, KOKKOS_LAMBDA(i, sum) { sum += f(i); })`.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/adapters.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/reduce_value.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/dot.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim {

/// The value type of f(i): what transform_reduce and the transform scans accumulate in.
template <class F>
using index_result_t = std::remove_cvref_t<std::invoke_result_t<const F&, std::int64_t>>;

namespace impl {
template <class F>
concept IndexFunction = std::copy_constructible<F> && std::invocable<const F&, std::int64_t>;

inline void check_count(const char* function, std::int64_t n) {
  if (n < 0) throw_invalid_argument(function, "n = " + std::to_string(n) + " is negative");
}

/// Element i of one View through a unary op.
template <class X, class F>
struct UnaryTransform {
  X x;
  F f;
  KOKKOS_FUNCTION auto operator()(std::int64_t i) const { return f(x(i)); }
};

/// Element i of two Views through a binary op.
template <class X, class Y, class F>
struct BinaryTransform {
  X x;
  Y y;
  F f;
  KOKKOS_FUNCTION auto operator()(std::int64_t i) const { return f(x(i), y(i)); }
};
}  // namespace impl

/// op over f(0), ..., f(n-1), returned on the host (blocks until it is there). `f` is any
/// device-callable functor or lambda of the index (`KOKKOS_LAMBDA(std::int64_t i) { ... }`); its
/// return type is the accumulator. Runs the same kernels as kprim::reduce, the hand-written ones
/// on CUDA for ops that declare `is_commutative`. An op without identity() needs n > 0.
/// @throws kprim::invalid_argument for a negative n, or n = 0 with an op without identity().
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] index_result_t<F> transform_reduce(const Space& space, N n, const F& f, const Op& op = {},
                                                 const Options& options = {}) {
  using T = index_result_t<F>;
  static_assert(BinaryOperation<Op, T>, "kprim::transform_reduce: op must provide operator()(T, T) -> T");
  constexpr const char* function = "kprim::transform_reduce";
  impl::check_initialized<Space>(function);
  impl::check_count(function, std::int64_t(n));
  return impl::reduce_value<T>(function, space, std::int64_t(n), impl::IndexSource<F, T>{f, std::int64_t(n)}, op,
                               options, nullptr);
}

/// As above, into the rank-0 View `result` (any memory space; its value type is the
/// accumulator) without blocking the host. `op` needs identity() (an empty range has a value).
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::AnyView Result,
          impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
void transform_reduce(const Space& space, N n, const F& f, const Result& result, const Op& op = {},
                      const Options& options = {}) {
  using T = typename Result::non_const_value_type;
  static_assert(Result::rank() == 0 && !std::is_const_v<typename Result::value_type>,
                "kprim::transform_reduce: the result must be a non-const rank-0 View");
  static_assert(Operation<Op, T>, "kprim::transform_reduce: a result View needs an op with identity() and "
                                  "operator()(T, T) -> T");
  constexpr const char* function = "kprim::transform_reduce";
  impl::check_initialized<Space>(function);
  impl::check_count(function, std::int64_t(n));
  impl::check_allocated(function, "result", result);
  impl::run_reduce(function, space, std::int64_t(n), impl::IndexSource<F, T>{f, std::int64_t(n)}, op, result,
                   options);
}

/// As std::transform_reduce(first, last, init, reduce_op, transform_op): reduce_op(init,
/// transform_op(x(0)), ..., transform_op(x(n-1))) in the type of `init`, on the host.
template <impl::ExecutionSpace Space, impl::AnyView X, class Init, impl::OpArgument ReduceOp, class TransformOp, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(impl::OpArgument<Init> && !impl::AnyView<TransformOp> && BinaryOperation<ReduceOp, Init>)
[[nodiscard]] Init transform_reduce(const Space& space, const X& x, const Init& init, const ReduceOp& reduce_op,
                                    const TransformOp& transform_op, const Options& options = {}) {
  static_assert(X::rank() == 1, "kprim::transform_reduce: x must be a rank-1 View");
  constexpr const char* function = "kprim::transform_reduce";
  impl::check_initialized<Space>(function);
  impl::check_view<Space>(function, "x", x);
  const std::int64_t n = std::int64_t(x.extent(0));
  using Transform = impl::UnaryTransform<X, TransformOp>;
  return impl::reduce_value<Init>(function, space, n, impl::IndexSource<Transform, Init>{{x, transform_op}, n},
                                  reduce_op, options, &init);
}

/// As std::transform_reduce(first1, last1, first2, init, reduce_op, transform_op):
/// reduce_op(init, transform_op(x(0), y(0)), ...) in the type of `init`, on the host.
/// kprim::dot(x, y) is transform_reduce(x, y, 0, kprim::Sum{}, kprim::Prod{}), and that call
/// runs dot's kernels.
/// @throws kprim::invalid_argument if the extents differ or a View is unallocated or not readable by `space`.
template <impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, class Init, impl::OpArgument ReduceOp,
          class TransformOp, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(impl::OpArgument<Init> && BinaryOperation<ReduceOp, Init>)
[[nodiscard]] Init transform_reduce(const Space& space, const X& x, const Y& y, const Init& init,
                                    const ReduceOp& reduce_op, const TransformOp& transform_op,
                                    const Options& options = {}) {
  static_assert(X::rank() == 1 && Y::rank() == 1, "kprim::transform_reduce: x and y must be rank-1 Views");
  constexpr const char* function = "kprim::transform_reduce";
  impl::check_initialized<Space>(function);
  impl::check_pair<Space>(function, x, y);
  const std::int64_t n = std::int64_t(x.extent(0));
  if constexpr (std::is_same_v<ReduceOp, Sum> && std::is_same_v<TransformOp, Prod>) {
    return impl::reduce_value<Init>(function, space, n, impl::Products<Init, X, Y>{x, y}, reduce_op, options, &init);
  } else {
    using Transform = impl::BinaryTransform<X, Y, TransformOp>;
    return impl::reduce_value<Init>(function, space, n, impl::IndexSource<Transform, Init>{{x, y, transform_op}, n},
                                    reduce_op, options, &init);
  }
}

/// transform_reduce on the default execution space instance.
template <std::integral N, impl::IndexFunction F, class... Rest>
auto transform_reduce(N n, const F& f, const Rest&... rest) {
  impl::check_initialized("kprim::transform_reduce");
  return kprim::transform_reduce(Kokkos::DefaultExecutionSpace{}, n, f, rest...);
}

}  // namespace kprim
