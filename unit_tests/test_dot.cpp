// kprim::dot: every space x value type x algorithm (every rung of the reduction ladder), the
// tunings and sizes of kprim_test::runs().

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <numeric>

using namespace kprim_test;

TEMPLATE_LIST_TEST_CASE("dot returns sum x(i) y(i)", "[dot]", SpaceValue) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const auto& run : runs<kprim::ReduceAlgorithm>(space)) {
    const auto options = kprim::any_algorithm({.algorithm = run.algorithm, .tuning = run.tuning});
    if (run.refused) {
      INFO(case_name<TestType>() << ", " << describe(run));
      const auto x = to_space(space, exact_input<T, kprim::Sum>(100, 1), "x");
      REQUIRE_THROWS_WITH(kprim::dot(space, x, x, options), Catch::Matchers::StartsWith("kprim::dot: "));
      continue;
    }
    for (const std::int64_t n : run.sizes) {
      INFO(case_name<TestType>() << ", " << describe(run) << ", n = " << n);
      const auto hx = exact_input<T, kprim::Sum>(n, 11 + n);
      const auto hy = exact_input<T, kprim::Sum>(n, 12 + n);
      const T expected = std::transform_reduce(hx.begin(), hx.end(), hy.begin(), T(0));
      const auto x = to_space(space, hx, "x");
      const auto y = to_space(space, hy, "y");
      REQUIRE(kprim::dot(space, x, y, options) == expected);

      Kokkos::View<T, Kokkos::HostSpace> on_host("on_host");
      Kokkos::View<T, typename Space::memory_space> in_space("in_space");
      kprim::dot(space, x, y, on_host, options);
      kprim::dot(space, x, y, in_space, options);
      space.fence();
      T from_space{};
      Kokkos::deep_copy(from_space, in_space);
      REQUIRE(on_host() == expected);
      REQUIRE(from_space == expected);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("dot of mixed types, strided Views, default instance", "[dot]", SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  const std::int64_t n = 10'001;
  std::vector<float> hx(n);
  std::vector<double> hy(2 * n);
  for (std::int64_t i = 0; i < n; ++i) hx[i] = float(i % 7) - 3;
  for (std::int64_t i = 0; i < 2 * n; ++i) hy[i] = double(i % 5);
  double expected = 0;
  for (std::int64_t i = 0; i < n; ++i) expected += double(hx[i]) * hy[2 * i];
  const auto x = to_space(space, hx, "x");
  const auto y_storage = to_space(space, hy, "y");
  Kokkos::View<const double*, Kokkos::LayoutStride, memory_space> y(y_storage.data(), Kokkos::LayoutStride(n, 2));
  const auto value = kprim::dot(space, x, y);
  STATIC_REQUIRE(std::is_same_v<decltype(value), const double>);
  REQUIRE(value == expected);
  REQUIRE(kprim::dot(x, y) == expected);
  for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
    INFO(kprim::to_string(algorithm));
    REQUIRE(kprim::dot(space, x, y, kprim::any_algorithm({.algorithm = algorithm})) == expected);
  }
}
