#pragma once
/// @file
/// kprim::parallel_scan — takes a `Kokkos::parallel_scan` functor or lambda unchanged and runs it
/// on kprim's single-pass scan. Switching is one call:
/// @code
///   Kokkos::parallel_scan("offsets", n, KOKKOS_LAMBDA(int i, std::int64_t& partial, bool final) {
///     if (final) offsets(i) = partial;
///     partial += count(i);
///   }, nnz);
/// @endcode
/// becomes `kprim::parallel_scan("offsets", n, lambda, nnz)` with the same lambda.
///
/// The form kprim can represent exactly is the one Kokkos documents for a sum: the functor adds
/// to `partial` a contribution that depends on i only, and reads `partial` (the exclusive prefix)
/// only when `final` is true. kprim calls f(i, v, false) on v = T() to get i's contribution, and
/// f(i, prefix, true) once per i with the exclusive prefix, as Kokkos does. Functors with their
/// own join/init (custom reducers) are not taken.

#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>
#include <kprim/transform_scan.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim {

namespace impl {
/// The value type of a Kokkos scan functor: the second parameter of its operator()(i, T&, bool).
template <class Member>
struct scan_value_of {};
template <class C, class I, class T>
struct scan_value_of<void (C::*)(I, T&, bool) const> {
  using type = T;
};
template <class C, class I, class T>
struct scan_value_of<void (C::*)(I, T&, bool)> {
  using type = T;
};
template <class F>
concept HasPlainCallOperator = requires { &F::operator(); };

template <class Value, class F>
struct kokkos_scan_value {
  using type = Value;
};
template <class F>
struct kokkos_scan_value<void, F> {
  static_assert(HasPlainCallOperator<F>, "kprim::parallel_scan: cannot deduce the scan's value type from a generic "
                                         "functor; name it: kprim::parallel_scan<T>(...)");
  using type = typename scan_value_of<decltype(&F::operator())>::type;
};

/// i's contribution: what the functor adds to a zero partial.
template <class F, class T, class Index>
struct KokkosScanContribution {
  F f;
  Index begin;
  KOKKOS_FUNCTION T operator()(std::int64_t j) const {
    T value{};
    f(Index(begin + j), value, false);
    return value;
  }
};

/// The final pass at i, from the exclusive prefix.
template <class F, class T, class Index>
struct KokkosScanFinal {
  F f;
  Index begin;
  KOKKOS_FUNCTION void operator()(std::int64_t j, const T& prefix) const {
    T partial = prefix;
    f(Index(begin + j), partial, true);
  }
  /// A whole tile [first, last) from its exclusive prefix (a host thread's tile,
  /// team::LookbackScanTiles): the final pass as Kokkos runs it, the lambda carrying its own
  /// partial, one call per index instead of a contribution call and a final call.
  KOKKOS_FUNCTION void put_tile(std::int64_t first, std::int64_t last, const T& prefix) const {
    T partial = prefix;
    for (std::int64_t j = first; j < last; ++j) f(Index(begin + j), partial, true);
  }
};

template <class Policy>
struct scan_range {
  using space = Kokkos::DefaultExecutionSpace;
  using index = std::int64_t;
  static space instance(const Policy&) { return space{}; }
  static index begin(const Policy&) { return 0; }
  static index end(const Policy& n) { return index(n); }
};
template <class... Traits>
struct scan_range<Kokkos::RangePolicy<Traits...>> {
  using policy = Kokkos::RangePolicy<Traits...>;
  using space = typename policy::execution_space;
  using index = typename policy::index_type;
  static space instance(const policy& p) { return p.space(); }
  static index begin(const policy& p) { return p.begin(); }
  static index end(const policy& p) { return p.end(); }
};

template <class Policy>
concept ScanPolicy = std::integral<Policy> || requires { typename scan_range<Policy>::policy; };

template <class Value, class Policy, class F, class Total>
void kokkos_scan(const Policy& policy, const F& f, Total* total_value, const Total* total_view) {
  using T = typename kokkos_scan_value<Value, F>::type;
  using range = scan_range<Policy>;
  using Index = typename range::index;
  constexpr const char* function = "kprim::parallel_scan";
  check_initialized<typename range::space>(function);
  const auto space = range::instance(policy);
  const Index begin = range::begin(policy);
  const std::int64_t n = std::int64_t(range::end(policy)) - std::int64_t(begin);
  check_count(function, n);
  const KokkosScanContribution<F, T, Index> contribution{f, begin};
  const KokkosScanFinal<F, T, Index> final_pass{f, begin};
  if constexpr (std::is_same_v<Total, void>) {
    (void)total_value;
    (void)total_view;
    scan_each(function, space, n, contribution, final_pass, T{}, Sum{}, ScanOptions{}, NoTotal{});
  } else if constexpr (Kokkos::is_view_v<Total>) {
    scan_each_into(function, space, n, contribution, final_pass, T{}, *total_view, Sum{}, ScanOptions{});
  } else {
    *total_value = Total(scan_each_total(function, space, n, contribution, final_pass, T{}, Sum{}, ScanOptions{}));
  }
}
}  // namespace impl

/// Runs a Kokkos scan functor over [0, n) (an integer, on the default execution space) or over
/// a Kokkos::RangePolicy (its instance and bounds). Asynchronous, as Kokkos' form without a total.
/// @throws kprim::invalid_argument for a negative range.
template <class Value = void, impl::ScanPolicy Policy, class F>
void parallel_scan(const std::string& /*label*/, const Policy& policy, const F& f) {
  impl::kokkos_scan<Value, Policy, F, void>(policy, f, nullptr, nullptr);
}

/// As above, and stores the total (the sum of every contribution) in `total`: a host variable
/// (blocks until it is there, as Kokkos does) or a rank-0 View (does not block).
template <class Value = void, impl::ScanPolicy Policy, class F, class Total>
  requires(!std::is_const_v<Total>)
void parallel_scan(const std::string& /*label*/, const Policy& policy, const F& f, Total& total) {
  if constexpr (Kokkos::is_view_v<Total>) impl::kokkos_scan<Value, Policy, F, Total>(policy, f, nullptr, &total);
  else impl::kokkos_scan<Value, Policy, F, Total>(policy, f, &total, nullptr);
}

/// The same without a label.
template <class Value = void, impl::ScanPolicy Policy, class F>
void parallel_scan(const Policy& policy, const F& f) {
  impl::kokkos_scan<Value, Policy, F, void>(policy, f, nullptr, nullptr);
}

/// The same without a label, with a total.
template <class Value = void, impl::ScanPolicy Policy, class F, class Total>
  requires(!std::is_const_v<Total>)
void parallel_scan(const Policy& policy, const F& f, Total& total) {
  if constexpr (Kokkos::is_view_v<Total>) impl::kokkos_scan<Value, Policy, F, Total>(policy, f, nullptr, &total);
  else impl::kokkos_scan<Value, Policy, F, Total>(policy, f, &total, nullptr);
}

}  // namespace kprim
