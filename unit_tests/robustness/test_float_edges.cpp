// Floating-point edge values through every algorithm: NaN and ±inf propagate as README
// "Guarantees" says, denormals are not flushed to zero, -0.0 keeps its sign where it is the answer.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <cmath>

using namespace kprim_test;

namespace {

/// Small integers (exact in any order) with `value` at each of `positions`.
template <class T>
std::vector<T> with_values_at(std::int64_t n, std::initializer_list<std::pair<std::int64_t, T>> values) {
  std::vector<T> data(n);
  for (std::int64_t i = 0; i < n; ++i) data[i] = T(i % 5) - T(1);
  for (const auto& [position, value] : values) data[position] = value;
  return data;
}

/// Runs the reduce under every configuration and checks `accept` on the result.
template <class Space, class T, class Op, class Accept>
void every_reduce(const Space& space, const std::vector<T>& host, const Op& op, const char* expectation,
                  const Accept& accept) {
  const auto x = to_space(space, host, "x");
  for (const auto& options : reduce_variants(space)) {
    const T value = kprim::reduce(space, x, op, options);
    INFO("n = " << host.size() << ", " << type_name<Op>() << ", " << describe(options) << ": got " << value
                << ", expected " << expectation);
    CHECK(accept(value));
  }
}

/// Runs the inclusive and exclusive scans under every configuration; accept(i, value, exclusive)
/// checks each output element.
template <class Space, class T, class Op, class Accept>
void every_scan(const Space& space, const std::vector<T>& host, const Op& op, const Accept& accept) {
  const auto in = to_space(space, host, "in");
  Kokkos::View<T*, typename Space::memory_space> out("out", host.size());
  for (const auto& options : scan_variants(space)) {
    for (const bool exclusive : {false, true}) {
      if (exclusive) kprim::exclusive_scan(space, in, out, kprim::identity_of<T>(op), op, options);
      else kprim::inclusive_scan(space, in, out, op, options);
      const auto got = to_host(out);
      std::int64_t bad = -1;
      for (std::int64_t i = 0; i < std::int64_t(got.size()) && bad < 0; ++i)
        if (!accept(i, got[i], exclusive)) bad = i;
      INFO("n = " << host.size() << ", " << type_name<Op>() << (exclusive ? ", exclusive, " : ", inclusive, ")
                  << describe(options) << ": first wrong element " << bad << (bad >= 0 ? " = " : "")
                  << (bad >= 0 ? got[bad] : T(0)));
      CHECK(bad == -1);
    }
  }
}

std::vector<std::int64_t> edge_value_sizes() {
  std::vector<std::int64_t> list = robustness_sizes();
  std::erase(list, 0);
  return list;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("a NaN anywhere makes Sum, Min and Max NaN, and scans NaN from there on", "[hostile]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (const std::int64_t n : edge_value_sizes()) {
    for (const std::int64_t p : {std::int64_t(0), n / 2, n - 1}) {
      const auto host = with_values_at<T>(n, {{p, nan}});
      const auto is_nan = [](T v) { return std::isnan(v); };
      every_reduce(space, host, kprim::Sum{}, "NaN", is_nan);
      every_reduce(space, host, kprim::Min{}, "NaN", is_nan);
      every_reduce(space, host, kprim::Max{}, "NaN", is_nan);
      const auto check_scan = [&](const auto& op) {
        const auto inclusive = reference_inclusive(host, op);  // its NaN propagation is the reference's
        every_scan(space, host, op, [&](std::int64_t i, T v, bool exclusive) {
          const std::int64_t first_nan = exclusive ? p + 1 : p;
          if (i >= first_nan) return bool(std::isnan(v));
          const T want = exclusive ? (i == 0 ? kprim::identity_of<T>(op) : inclusive[i - 1]) : inclusive[i];
          return v == want;
        });
      };
      if (p == n / 2) {  // scans once per size: they walk every element anyway
        check_scan(kprim::Sum{});
        check_scan(kprim::Min{});
        check_scan(kprim::Max{});
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("infinities: +inf wins Sum and Max, -inf wins Min, +inf + -inf is NaN", "[hostile]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const T inf = std::numeric_limits<T>::infinity();
  for (const std::int64_t n : edge_value_sizes()) {
    const auto plus = with_values_at<T>(n, {{n / 3, inf}});
    every_reduce(space, plus, kprim::Sum{}, "+inf", [&](T v) { return v == inf; });
    every_reduce(space, plus, kprim::Max{}, "+inf", [&](T v) { return v == inf; });
    const T finite_min = *std::min_element(plus.begin(), plus.end());
    every_reduce(space, plus, kprim::Min{}, "the finite minimum", [&](T v) { return v == finite_min; });
    every_scan(space, plus, kprim::Sum{}, [&](std::int64_t i, T v, bool exclusive) {
      return (exclusive ? i > n / 3 : i >= n / 3) ? v == inf : std::isfinite(v);
    });
    if (n >= 2) {
      const auto both = with_values_at<T>(n, {{n / 3, inf}, {n - 1, -inf}});
      every_reduce(space, both, kprim::Sum{}, "NaN", [](T v) { return std::isnan(v); });
      every_reduce(space, both, kprim::Min{}, "-inf", [&](T v) { return v == -inf; });
      every_reduce(space, both, kprim::Max{}, "+inf", [&](T v) { return v == inf; });
    }
  }
}

TEMPLATE_LIST_TEST_CASE("denormals are summed exactly, not flushed to zero", "[hostile]", SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const T tiny = std::numeric_limits<T>::denorm_min();
  for (const std::int64_t n : edge_value_sizes()) {
    const std::vector<T> host(n, tiny);  // n * tiny is exact: n < 2^24 multiples of the smallest step
    every_reduce(space, host, kprim::Sum{}, "n * denorm_min", [&](T v) { return v == T(n) * tiny; });
    every_reduce(space, host, kprim::Min{}, "denorm_min", [&](T v) { return v == tiny; });
    every_scan(space, host, kprim::Sum{},
               [&](std::int64_t i, T v, bool exclusive) { return v == T(exclusive ? i : i + 1) * tiny; });
    const auto x = to_space(space, host, "x");
    const auto ones = to_space(space, std::vector<T>(n, T(1)), "ones");
    for (const auto& options : reduce_variants(space)) {
      INFO(describe(options));
      CHECK(kprim::dot(space, x, ones, options) == T(n) * tiny);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("-0.0 is the answer where it is the only zero; zero sums compare equal to 0", "[hostile]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const std::int64_t n : edge_value_sizes()) {
    // Min over positives and one -0.0, Max over negatives and one -0.0: -0.0, sign included.
    std::vector<T> positive(n, T(1)), negative(n, T(-1));
    positive[n / 2] = T(-0.0);
    negative[n / 2] = T(-0.0);
    const auto negative_zero = [](T v) { return v == T(0) && std::signbit(v); };
    every_reduce(space, positive, kprim::Min{}, "-0.0", negative_zero);
    every_reduce(space, negative, kprim::Max{}, "-0.0", negative_zero);
    // The sum of -0.0s is a zero; its sign is not specified (the identity is +0.0).
    every_reduce(space, std::vector<T>(n, T(-0.0)), kprim::Sum{}, "a zero", [](T v) { return v == T(0); });
  }
}
