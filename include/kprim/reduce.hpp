#pragma once
/// @file
/// kprim::reduce — combine all elements of a rank-1 View with an associative op.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/dispatch.hpp>
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
template <impl::ExecutionSpace Space, impl::AnyView View, impl::AnyView Result, impl::OpArgument Op = Sum>
void reduce(const Space& space, const View& x, const Result& result, const Op& op = {},
            const ReduceOptions& options = {}) {
  using T = typename Result::non_const_value_type;
  static_assert(View::rank() == 1, "kprim::reduce: the input must be a rank-1 View");
  static_assert(Result::rank() == 0, "kprim::reduce: the result must be a rank-0 View");
  static_assert(!std::is_const_v<typename Result::value_type>, "kprim::reduce: the result View must not be const");
  static_assert(Operation<Op, T>, "kprim::reduce: op must provide identity() and operator()(T, T) -> T");
  constexpr const char* function = "kprim::reduce";
  impl::check_initialized(function);
  impl::check_view<Space>(function, "input", x);
  impl::check_allocated(function, "result", result);
  impl::run_reduce(function, space, std::int64_t(x.extent(0)), x, op, result, options);
}

/// Reduces `x` with `op` and returns the value on the host (blocks until it is there). On a GPU
/// the last kernel writes the value straight into pinned host memory (no device-to-host copy),
/// the lowest-latency way to get a scalar back; the View overload above never blocks.
template <impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum>
[[nodiscard]] typename View::non_const_value_type reduce(const Space& space, const View& x, const Op& op = {},
                                                         const ReduceOptions& options = {}) {
  return impl::value_on_host<typename View::non_const_value_type>(
      "kprim::reduce", space, [&](const auto& result) { kprim::reduce(space, x, result, op, options); });
}

/// Reduces `x` with `op` in the accumulator type Acc and returns the value on the host: each
/// element is converted to Acc before it is combined, so `kprim::reduce<std::int64_t>(space, ints)`
/// sums int32 data without overflow and `kprim::reduce<double>(space, floats)` sums floats in
/// double, without copying the input.
template <class Acc, impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(const Space& space, const View& x, const Op& op = {}, const ReduceOptions& options = {}) {
  return impl::value_on_host<Acc>("kprim::reduce", space,
                                  [&](const auto& result) { kprim::reduce(space, x, result, op, options); });
}

/// As above, on the View's default execution space instance.
template <class Acc, impl::AnyView View, impl::OpArgument Op = Sum>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(const View& x, const Op& op = {}, const ReduceOptions& options = {}) {
  return kprim::reduce<Acc>(impl::default_instance<View>("kprim::reduce"), x, op, options);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, impl::AnyView Result, impl::OpArgument Op = Sum>
void reduce(const View& x, const Result& result, const Op& op = {}, const ReduceOptions& options = {}) {
  kprim::reduce(impl::default_instance<View>("kprim::reduce"), x, result, op, options);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, impl::OpArgument Op = Sum>
[[nodiscard]] typename View::non_const_value_type reduce(const View& x, const Op& op = {},
                                                         const ReduceOptions& options = {}) {
  return kprim::reduce(impl::default_instance<View>("kprim::reduce"), x, op, options);
}

}  // namespace kprim
