// Bad input: a kprim::invalid_argument naming the function and the values, and nothing written.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using namespace kprim_test;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;

namespace {

/// An output window inside a larger array whose guard elements must never change.
template <class Space>
struct GuardedOutput {
  static constexpr std::int64_t guard = 8;
  static constexpr double sentinel = -12345.0;
  Kokkos::View<double*, typename Space::memory_space> storage;
  Kokkos::View<double*, typename Space::memory_space> window;

  GuardedOutput(std::int64_t n)
      : storage("storage", n + 2 * guard),
        window(Kokkos::subview(storage, Kokkos::pair<std::int64_t, std::int64_t>(guard, guard + n))) {
    Kokkos::deep_copy(storage, sentinel);
  }
  bool untouched() const {
    for (const double v : to_host(storage))
      if (v != sentinel) return false;
    return true;
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("mismatched extents are reported and nothing is written", "[errors]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const auto in = to_space(space, std::vector<double>(10, 1.0), "in");
  GuardedOutput<Space> out(9);
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, out.window),
                      Equals("kprim::inclusive_scan: output extent 9 != input extent 10"));
  REQUIRE_THROWS_AS(kprim::exclusive_scan(space, in, out.window, 0.0), kprim::invalid_argument);
  REQUIRE_THROWS_AS(kprim::exclusive_scan(space, in, out.window, 0.0), std::invalid_argument);
  REQUIRE_THROWS_WITH(kprim::exclusive_scan(space, in, out.window, 0.0),
                      Equals("kprim::exclusive_scan: output extent 9 != input extent 10"));
  REQUIRE(out.untouched());
  REQUIRE_THROWS_WITH(kprim::dot(space, in, out.window), Equals("kprim::dot: extent of y 9 != extent of x 10"));
}

TEMPLATE_LIST_TEST_CASE("unallocated Views are reported", "[errors]", SpaceOnly) {
  using Space = typename TestType::space;
  using view = Kokkos::View<double*, typename Space::memory_space>;
  const Space space;
  const view unallocated;
  const auto in = to_space(space, std::vector<double>(10, 1.0), "in");
  GuardedOutput<Space> out(10);
  REQUIRE_THROWS_WITH(kprim::reduce(space, unallocated), Equals("kprim::reduce: input View is not allocated"));
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, unallocated),
                      Equals("kprim::inclusive_scan: output View is not allocated"));
  REQUIRE_THROWS_WITH(kprim::exclusive_scan(space, unallocated, out.window, 0.0),
                      Equals("kprim::exclusive_scan: input View is not allocated"));
  REQUIRE_THROWS_WITH(kprim::dot(space, in, unallocated), Equals("kprim::dot: y View is not allocated"));
  REQUIRE_THROWS_WITH(kprim::reduce(space, in, Kokkos::View<double, Kokkos::HostSpace>()),
                      Equals("kprim::reduce: result View is not allocated"));
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, out.window, Kokkos::View<double, Kokkos::HostSpace>()),
                      Equals("kprim::inclusive_scan: total View is not allocated"));
  REQUIRE(out.untouched());
  // An allocated empty View is fine.
  REQUIRE(kprim::reduce(space, view("empty", 0)) == 0.0);
}

TEMPLATE_LIST_TEST_CASE("partially overlapping input and output are refused; in place is fine", "[errors]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  std::vector<double> host(100);
  for (int i = 0; i < 100; ++i) host[i] = i;
  const auto data = to_space(space, host, "data");
  const auto head = Kokkos::subview(data, Kokkos::pair<int, int>(0, 50));
  const auto shifted = Kokkos::subview(data, Kokkos::pair<int, int>(1, 51));
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, head, shifted),
                      StartsWith("kprim::inclusive_scan: input and output Views overlap"));
  REQUIRE_THROWS_WITH(kprim::exclusive_scan(space, shifted, head, 0.0),
                      StartsWith("kprim::exclusive_scan: input and output Views overlap"));
  // Same start, different stride: overlapping but not the same elements.
  Kokkos::View<double*, Kokkos::LayoutStride, memory_space> strided(data.data(), Kokkos::LayoutStride(50, 2));
  REQUIRE_THROWS_AS(kprim::inclusive_scan(space, head, strided), kprim::invalid_argument);
  REQUIRE(to_host(data) == host);  // nothing was written

  // Disjoint halves of one allocation and the same View are both accepted.
  const auto tail = Kokkos::subview(data, Kokkos::pair<int, int>(50, 100));
  kprim::inclusive_scan(space, head, tail);
  kprim::inclusive_scan(space, head, head);
  const auto result = to_host(data);
  REQUIRE(result[49] == 49.0 * 50 / 2);
  REQUIRE(result[99] == 49.0 * 50 / 2);
}

TEMPLATE_LIST_TEST_CASE("impossible tuning is reported", "[errors]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const auto in = to_space(space, std::vector<double>(10, 1.0), "in");
  const int too_many = max_team_size(space) + 1;
  const kprim::Tuning big_team{.team_size = too_many}, negative{.items_per_thread = -1};
  REQUIRE_THROWS_WITH(kprim::reduce(space, in, kprim::Sum{},
                                    kprim::any_algorithm({.algorithm = automatic_for<kprim::ReduceAlgorithm>(space, big_team),
                                                          .tuning = big_team})),
                      StartsWith("kprim::reduce: team_size " + std::to_string(too_many) + " exceeds the maximum"));
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, in, kprim::Sum{},
                                            kprim::any_algorithm({.algorithm = automatic_for<kprim::ScanAlgorithm>(space, negative),
                                                                  .tuning = negative})),
                      StartsWith("kprim::inclusive_scan: tuning values must be >= 0"));
  // The three-phase recursion needs tiles of 2 or more; the single-pass scan takes any tile.
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, in, kprim::Sum{},
                                            kprim::ScanWith<kprim::ScanAlgorithm::three_phase>{
                                                .tuning = {.team_size = 1, .items_per_thread = 1}}),
                      StartsWith("kprim::inclusive_scan: a scan tile must hold at least 2 elements"));
  const auto out = to_space(space, std::vector<double>(10, 0.0), "out");
  kprim::inclusive_scan(space, in, out, kprim::Sum{},
                        kprim::ScanWith<kprim::ScanAlgorithm::decoupled_lookback>{
                            .tuning = {.team_size = 1, .items_per_thread = 1}});
  REQUIRE(to_host(out) == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  // (the three-phase scan stages its tile in scratch; a one-thread look-back team works in place)
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, in, in, kprim::Sum{},
                                            kprim::ScanWith<kprim::ScanAlgorithm::three_phase>{
                                                .tuning = {.items_per_thread = 1 << 30}}),
                      ContainsSubstring("bytes of team scratch"));
}

TEMPLATE_LIST_TEST_CASE("memory the space cannot access is reported", "[errors]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  Kokkos::View<double*, Kokkos::HostSpace> host_data("host_data", 10);
  if constexpr (Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible) {
    REQUIRE(kprim::reduce(space, host_data) == 0.0);
    SUCCEED("HostSpace is accessible from " << Space::name());
  } else {
    REQUIRE_THROWS_WITH(kprim::reduce(space, host_data),
                        Equals(std::string("kprim::reduce: input View's memory space ") + Kokkos::HostSpace::name() +
                               " is not accessible from execution space " + Space::name()));
  }
}
