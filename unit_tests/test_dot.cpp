// kprim::dot: every space x value type, every tuning, the sizes.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <numeric>

using namespace kprim_test;

TEMPLATE_LIST_TEST_CASE("dot returns sum x(i) y(i)", "[dot]", SpaceValue) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const auto& tuning : tunings(space)) {
    const auto [team, tile] = team_and_tile(space, tuning, false);
    for (const std::int64_t n : sizes(team, tile)) {
      INFO(case_name<TestType>() << ", " << describe(tuning) << ", n = " << n);
      const auto hx = exact_input<T, kprim::Sum>(n, 11 + n);
      const auto hy = exact_input<T, kprim::Sum>(n, 12 + n);
      const T expected = std::transform_reduce(hx.begin(), hx.end(), hy.begin(), T(0));
      const auto x = to_space(space, hx, "x");
      const auto y = to_space(space, hy, "y");
      REQUIRE(kprim::dot(space, x, y, {.tuning = tuning}) == expected);

      Kokkos::View<T, Kokkos::HostSpace> on_host("on_host");
      Kokkos::View<T, typename Space::memory_space> in_space("in_space");
      kprim::dot(space, x, y, on_host, {.tuning = tuning});
      kprim::dot(space, x, y, in_space, {.tuning = tuning});
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
}
