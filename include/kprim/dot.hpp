#pragma once
/// @file
/// kprim::dot — sum of x(i) * y(i).

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/thread/rounded_product.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim {

namespace impl {
/// The reduce driver's source for a dot product: products formed as they are loaded. The
/// Determinism::bitwise paths take the Rounded form (each product rounded before it is added,
/// whatever the compiler's contraction flags); the others let the compiler fuse and vectorize.
template <class T, class X, class Y, bool Rounded = false>
struct Products {
  X x;
  Y y;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const {
    if constexpr (Rounded) return rounded_product(T(x(i)), T(y(i)));
    else return T(x(i)) * T(y(i));
  }
};
}  // namespace impl

/// The value type of dot(x, y): the common type of the two inputs' value types.
template <class X, class Y>
using dot_value_t = std::common_type_t<typename X::non_const_value_type, typename Y::non_const_value_type>;

/// Writes sum_i x(i) * y(i) into the rank-0 View `result` (any memory space; its value type is
/// the accumulator) without blocking the host.
/// @throws kprim::invalid_argument if the extents differ or a View is unallocated or not readable by `space`.
template <impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, impl::AnyView Result, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
void dot(const Space& space, const X& x, const Y& y, const Result& result, const Options& options = {}) {
  using T = typename Result::non_const_value_type;
  static_assert(X::rank() == 1 && Y::rank() == 1, "kprim::dot: x and y must be rank-1 Views");
  static_assert(Result::rank() == 0, "kprim::dot: the result must be a rank-0 View");
  static_assert(!std::is_const_v<typename Result::value_type>, "kprim::dot: the result View must not be const");
  constexpr const char* function = "kprim::dot";
  impl::check_initialized<Space>(function);
  impl::check_pair<Space>(function, x, y);
  impl::check_allocated(function, "result", result);
  impl::run_reduce(function, space, std::int64_t(x.extent(0)), impl::Products<T, X, Y>{x, y}, Sum{}, result,
                   options);
}

/// Returns sum_i x(i) * y(i) on the host (blocks until it is there; on a GPU the last kernel
/// writes the value straight into pinned host memory, as kprim::reduce's value overload).
template <impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] dot_value_t<X, Y> dot(const Space& space, const X& x, const Y& y, const Options& options = {}) {
  return impl::value_on_host<dot_value_t<X, Y>>("kprim::dot", space,
                                                [&](const auto& result) { kprim::dot(space, x, y, result, options); });
}

/// Returns sum_i x(i) * y(i) computed in the accumulator type Acc (each element converted to
/// Acc before the product), e.g. `kprim::dot<double>(space, x, y)` for float data.
template <class Acc, impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc dot(const Space& space, const X& x, const Y& y, const Options& options = {}) {
  return impl::value_on_host<Acc>("kprim::dot", space,
                                  [&](const auto& result) { kprim::dot(space, x, y, result, options); });
}

/// As above, on x's default execution space instance.
template <class Acc, impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc dot(const X& x, const Y& y, const Options& options = {}) {
  return kprim::dot<Acc>(impl::default_instance<X>("kprim::dot"), x, y, options);
}

/// As above, on x's default execution space instance.
template <impl::AnyView X, impl::AnyView Y, impl::AnyView Result, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
void dot(const X& x, const Y& y, const Result& result, const Options& options = {}) {
  kprim::dot(impl::default_instance<X>("kprim::dot"), x, y, result, options);
}

/// As above, on x's default execution space instance.
template <impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] dot_value_t<X, Y> dot(const X& x, const Y& y, const Options& options = {}) {
  return kprim::dot(impl::default_instance<X>("kprim::dot"), x, y, options);
}

}  // namespace kprim
