#pragma once
/// @file
/// Scans of values computed per index: kprim::transform_inclusive_scan and
/// kprim::transform_exclusive_scan (f(i) into a View), and kprim::exclusive_scan_each, whose
/// output is a callback: write(i, prefix, value) for every i, in one pass, the form of
/// `Kokkos::parallel_scan` lambdas that build CRS offsets, compact or partition.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/adapters.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/reduce_value.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>
#include <kprim/transform_reduce.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim {

namespace impl {
/// The output checks of a transform scan of n values into `out`.
template <class Space, class Out>
void check_transform_output(const char* function, std::int64_t n, const Out& out) {
  static_assert(Out::rank() == 1 && !std::is_const_v<typename Out::value_type>,
                "kprim transform scans: the output must be a non-const rank-1 View");
  check_initialized<Space>(function);
  check_count(function, n);
  check_view<Space>(function, "output", out);
  if (std::int64_t(out.extent(0)) != n)
    throw_invalid_argument(function, "output extent " + std::to_string(out.extent(0)) + " != n " + std::to_string(n));
}

template <class Out, class Total, class Op>
void check_total(const char* function, const Total& total) {
  using T = typename Out::non_const_value_type;
  static_assert(Total::rank() == 0 && !std::is_const_v<typename Total::value_type> &&
                    std::is_same_v<typename Total::non_const_value_type, T>,
                "kprim scans: the total must be a non-const rank-0 View of the output's value type");
  static_assert(HasIdentity<Op, T>, "kprim scans: a total View needs an op with identity()");
  check_allocated(function, "total", total);
}

/// exclusive_scan_each's sink: write(i, prefix) or write(i, prefix, f(i)) (f evaluated again
/// where the callback takes the value: it is not kept between the passes of a tile).
template <class F, class Write, class T>
struct EachWrite {
  F f;
  Write write;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& prefix) const {
    if constexpr (std::is_invocable_v<const Write&, std::int64_t, const T&, const T&>) write(i, prefix, T(f(i)));
    else write(i, prefix);
  }
  /// A callback that writes a whole tile from its prefix itself (kprim::parallel_scan's final pass).
  template <class W = Write>
    requires requires(const W& w, std::int64_t i, const T& prefix) { w.put_tile(i, i, prefix); }
  KOKKOS_FUNCTION void put_tile(std::int64_t first, std::int64_t last, const T& prefix) const {
    write.put_tile(first, last, prefix);
  }
};

/// EachWrite whose write needs nothing loaded: the callback is handed prefix and f(i) (kernels
/// may evaluate a batch of f before writing).
template <class F, class Write, class T>
struct EachWriteWithValue {
  F f;
  Write write;
  KOKKOS_FUNCTION T prepare(std::int64_t i) const { return T(f(i)); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& prefix, const T& value) const { write(i, prefix, value); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& prefix) const { write(i, prefix, prepare(i)); }
};

template <class Write, class T>
concept PrefixCallback = std::copy_constructible<Write> &&
                         (std::is_invocable_v<const Write&, std::int64_t, const T&, const T&> ||
                          std::is_invocable_v<const Write&, std::int64_t, const T&>);

template <class Space, class F, class Write, class T, class Op, class Total, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void scan_each(const char* function, const Space& space, std::int64_t n, const F& f, const Write& write,
               const T& init, const Op& op, const Options& options, const Total& total) {
  using Each = std::conditional_t<std::is_invocable_v<const Write&, std::int64_t, const T&, const T&>,
                                  EachWriteWithValue<F, Write, T>, EachWrite<F, Write, T>>;
  scan_values(function, space, IndexSource<F, T>{f, n}, Sink<T, Each>{Each{f, write}, n}, true, &init, op, options,
              total);
}

/// exclusive_scan_each with the total returned on the host, as `function` (the public name).
template <class Space, class F, class Write, class T, class Op, kprim::impl::ScanOptionsArgument Options = ScanOptions>
T scan_each_total(const char* function, const Space& space, std::int64_t n, const F& f, const Write& write,
                  const T& init, const Op& op, const Options& options) {
  static_assert(BinaryOperation<Op, T>, "kprim::exclusive_scan_each: op must provide operator()(T, T) -> T");
  check_initialized<Space>(function);
  check_count(function, n);
  using A = accumulator_t<Op, T>;
  const A total = value_on_host<A>(
      function, space, [&](const auto& slot) { scan_each(function, space, n, f, write, init, op, options, slot); });
  return plain_value(total);
}

/// exclusive_scan_each with the total into a rank-0 View, as `function`.
template <class Space, class F, class Write, class T, class Total, class Op, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void scan_each_into(const char* function, const Space& space, std::int64_t n, const F& f, const Write& write,
                    const T& init, const Total& total, const Op& op, const Options& options) {
  static_assert(Total::rank() == 0 && std::is_same_v<typename Total::non_const_value_type, T> &&
                    !std::is_const_v<typename Total::value_type>,
                "kprim::exclusive_scan_each: the total must be a non-const rank-0 View of init's type");
  static_assert(Operation<Op, T>, "kprim::exclusive_scan_each: a total View needs an op with identity()");
  check_initialized<Space>(function);
  check_count(function, n);
  check_allocated(function, "total", total);
  scan_each(function, space, n, f, write, init, op, options, total);
}
}  // namespace impl

/// out(i) = op(f(0), ..., f(i)) for a device-callable functor or lambda f of the index; the
/// output's value type is the accumulator. Asynchronous. Any associative op (without
/// identity() too).
/// @throws kprim::invalid_argument if out's extent is not n, or out is unallocated or not writable by `space`.
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::AnyView Out,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void transform_inclusive_scan(const Space& space, N n, const F& f, const Out& out, const Op& op = {},
                              const Options& options = {}) {
  constexpr const char* function = "kprim::transform_inclusive_scan";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::transform_inclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_transform_output<Space>(function, std::int64_t(n), out);
  impl::scan_values(function, space, impl::IndexSource<F, T>{f, std::int64_t(n)}, out, false, nullptr, op, options,
                    impl::NoTotal{});
}

/// As above, and writes op over all of f to the rank-0 View `total` (any memory space).
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::AnyView Out, impl::AnyView Total,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void transform_inclusive_scan(const Space& space, N n, const F& f, const Out& out, const Total& total,
                              const Op& op = {}, const Options& options = {}) {
  constexpr const char* function = "kprim::transform_inclusive_scan";
  using T = typename Out::non_const_value_type;
  impl::check_transform_output<Space>(function, std::int64_t(n), out);
  impl::check_total<Out, Total, Op>(function, total);
  impl::scan_values(function, space, impl::IndexSource<F, T>{f, std::int64_t(n)}, out, false, nullptr, op, options,
                    total);
}

/// out(i) = op(init, f(0), ..., f(i-1)); out(0) = init. Asynchronous. Any associative op.
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::AnyView Out,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void transform_exclusive_scan(const Space& space, N n, const F& f, const Out& out,
                              const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op = {},
                              const Options& options = {}) {
  constexpr const char* function = "kprim::transform_exclusive_scan";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::transform_exclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_transform_output<Space>(function, std::int64_t(n), out);
  impl::scan_values(function, space, impl::IndexSource<F, T>{f, std::int64_t(n)}, out, true, &init, op, options,
                    impl::NoTotal{});
}

/// As above, and writes op(init, f(0), ..., f(n-1)) to the rank-0 View `total` (any memory
/// space): CRS row offsets and their nnz in one call.
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, impl::AnyView Out, impl::AnyView Total,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void transform_exclusive_scan(const Space& space, N n, const F& f, const Out& out,
                              const std::type_identity_t<typename Out::non_const_value_type>& init,
                              const Total& total, const Op& op = {}, const Options& options = {}) {
  constexpr const char* function = "kprim::transform_exclusive_scan";
  using T = typename Out::non_const_value_type;
  impl::check_transform_output<Space>(function, std::int64_t(n), out);
  impl::check_total<Out, Total, Op>(function, total);
  impl::scan_values(function, space, impl::IndexSource<F, T>{f, std::int64_t(n)}, out, true, &init, op, options,
                    total);
}

/// The exclusive scan of f(0 .. n) handed to a callback instead of a View: for every i,
/// write(i, prefix, value) with prefix = op(init, f(0), ..., f(i-1)) and value = f(i) (or
/// write(i, prefix) when the callback takes two arguments), each i once, in one pass. Returns
/// op(init, f(0), ..., f(n-1)) on the host (blocks). The type of `init` is the accumulator.
/// Replaces
///   Kokkos::parallel_scan(n, KOKKOS_LAMBDA(int i, T& partial, bool final) {
///     if (final) offsets(i) = partial;
///     partial += count(i); }, total);
/// with
///   total = kprim::exclusive_scan_each(space, n, KOKKOS_LAMBDA(std::int64_t i) { return T(count(i)); },
///                                      KOKKOS_LAMBDA(std::int64_t i, T prefix) { offsets(i) = prefix; }, T(0));
/// (kprim::parallel_scan takes that Kokkos lambda unchanged). `f` may be evaluated more than
/// once per index, as Kokkos evaluates a scan functor; `write` runs once per index.
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, class Write, class T,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
  requires(impl::PrefixCallback<Write, T> && impl::OpArgument<T>)
T exclusive_scan_each(const Space& space, N n, const F& f, const Write& write, const T& init, const Op& op = {},
                      const Options& options = {}) {
  return impl::scan_each_total("kprim::exclusive_scan_each", space, std::int64_t(n), f, write, init, op, options);
}

/// As above without blocking: the total goes to the rank-0 View `total` (any memory space;
/// `op` needs identity()).
template <impl::ExecutionSpace Space, std::integral N, impl::IndexFunction F, class Write, class T,
          impl::AnyView Total, impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
  requires(impl::PrefixCallback<Write, T> && impl::OpArgument<T>)
void exclusive_scan_each(const Space& space, N n, const F& f, const Write& write, const T& init, const Total& total,
                         const Op& op = {}, const Options& options = {}) {
  impl::scan_each_into("kprim::exclusive_scan_each", space, std::int64_t(n), f, write, init, total, op, options);
}

}  // namespace kprim
