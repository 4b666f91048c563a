// User-defined ops and value types: non-commutative ops must keep left-to-right order.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

using namespace kprim_test;

namespace {

/// First and last valid entry of a range: associative, not commutative, on a plain struct.
struct Ends {
  int first = -1, last = -1;
  KOKKOS_FUNCTION friend bool operator==(const Ends& x, const Ends& y) { return x.first == y.first && x.last == y.last; }
};
struct KeepEnds {
  KOKKOS_FUNCTION Ends identity() const { return {}; }
  KOKKOS_FUNCTION Ends operator()(const Ends& x, const Ends& y) const {
    return {x.first >= 0 ? x.first : y.first, y.last >= 0 ? y.last : x.last};
  }
};

/// A user op on a built-in type that declares itself commutative (takes the fast path).
struct MaxAbs {
  static constexpr bool is_commutative = true;
  KOKKOS_FUNCTION double identity() const { return 0.0; }
  KOKKOS_FUNCTION double operator()(double x, double y) const { return Kokkos::fmax(Kokkos::fabs(x), Kokkos::fabs(y)); }
};

template <class T, class Op>
std::vector<T> sequential_inclusive(const std::vector<T>& in, const Op& op) {
  std::vector<T> out(in.size());
  T acc = op.identity();
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = acc = op(acc, in[i]);
  return out;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("non-commutative user op on a user struct keeps the order", "[user-op]", SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  const MatMulMod op;
  auto checked_sizes = [](const auto& run) {
    std::vector<std::int64_t> list = run.sizes;
    std::erase_if(list, [](std::int64_t n) { return n > 300'000; });  // matrices are 32 bytes each: keep it quick
    return list;
  };

  SECTION("reduce, every algorithm") {
    for (const auto& run : runs<kprim::ReduceAlgorithm>(space)) {
      const auto options = kprim::any_algorithm({.algorithm = run.algorithm, .tuning = run.tuning});
      if (run.refused) {
        INFO(Space::name() << ", " << describe(run));
        const auto in = to_space(space, random_matrices(100, 1), "in");
        REQUIRE_THROWS_AS(kprim::reduce(space, in, op, options), kprim::invalid_argument);
        continue;
      }
      for (const std::int64_t n : checked_sizes(run)) {
        INFO(Space::name() << ", " << describe(run) << ", n = " << n);
        const auto host = random_matrices(n, n);
        Mat2 total{};
        for (const Mat2& m : host) total = op(total, m);
        REQUIRE(kprim::reduce(space, to_space(space, host, "in"), op, options) == total);
      }
    }
  }

  SECTION("scans, every algorithm") {
    for (const auto& run : runs<kprim::ScanAlgorithm>(space)) {
      const auto options = kprim::any_algorithm({.algorithm = run.algorithm, .tuning = run.tuning});
      for (const std::int64_t n : checked_sizes(run)) {
        INFO(Space::name() << ", " << describe(run) << ", n = " << n);
        const auto host = random_matrices(n, n);
        const auto inclusive = sequential_inclusive(host, op);
        const auto in = to_space(space, host, "in");

        Kokkos::View<Mat2*, memory_space> out("out", n);
        kprim::inclusive_scan(space, in, out, op, options);
        REQUIRE(to_host(out) == inclusive);

        const Mat2 init{2, 3, 5, 7};
        Kokkos::View<Mat2, Kokkos::HostSpace> scan_total("scan_total");
        kprim::exclusive_scan(space, in, in, init, scan_total, op, options);
        space.fence();
        std::vector<Mat2> exclusive(n);
        Mat2 acc = init;
        for (std::int64_t i = 0; i < n; ++i) {
          exclusive[i] = acc;
          acc = op(acc, host[i]);
        }
        REQUIRE(to_host(in) == exclusive);
        REQUIRE(scan_total() == acc);
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("first/last op finds the ends of the valid entries", "[user-op]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  for (const std::int64_t n : {0, 1, 2, 1000, 123'457}) {
    for (const std::int64_t first_valid : {std::int64_t(0), n / 3, n - 1}) {
      if (first_valid < 0) continue;
      INFO(Space::name() << ", n = " << n << ", first valid " << first_valid);
      std::vector<Ends> host(n);
      for (std::int64_t i = first_valid; i < n; i += 7) host[i] = {int(i), int(i)};
      const auto in = to_space(space, host, "in");
      const Ends expected = sequential_inclusive(host, KeepEnds{}).empty() ? Ends{}
                                                                            : sequential_inclusive(host, KeepEnds{}).back();
      REQUIRE(expected.first == (n ? int(first_valid) : -1));
      for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
        INFO(kprim::to_string(algorithm));
        REQUIRE(kprim::reduce(space, in, KeepEnds{}, kprim::any_algorithm({.algorithm = algorithm})) == expected);
      }
      for (const auto algorithm : algorithms<kprim::ScanAlgorithm>()) {
        INFO(kprim::to_string(algorithm));
        // A scan's total is the same fold.
        Kokkos::View<Ends, Kokkos::HostSpace> total("total");
        Kokkos::View<Ends*, typename Space::memory_space> out("out", n);
        kprim::inclusive_scan(space, in, out, total, KeepEnds{}, kprim::any_algorithm({.algorithm = algorithm}));
        space.fence();
        REQUIRE(total() == expected);
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("commutative user op on double", "[user-op]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  std::vector<double> host(100'001);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = (i % 2 ? -1.0 : 1.0) * double(i % 1000);
  host[31337] = -5000.5;
  const auto x = to_space(space, host, "x");
  for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
    INFO(kprim::to_string(algorithm));
    REQUIRE(kprim::reduce(space, x, MaxAbs{}, kprim::any_algorithm({.algorithm = algorithm})) == 5000.5);
  }
  for (const auto algorithm : algorithms<kprim::ScanAlgorithm>()) {
    INFO(kprim::to_string(algorithm));
    decltype(x) out("out", host.size());
    kprim::inclusive_scan(space, x, out, MaxAbs{}, kprim::any_algorithm({.algorithm = algorithm}));
    const auto got = to_host(out);
    REQUIRE(got[31336] == 999.0);
    REQUIRE(got.back() == 5000.5);
  }
}

TEMPLATE_LIST_TEST_CASE("Min and Max of an empty range give the identity", "[reduce]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const Kokkos::View<float*, typename Space::memory_space> empty_float("empty", 0);
  const Kokkos::View<std::int32_t*, typename Space::memory_space> empty_int("empty", 0);
  for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
    INFO(kprim::to_string(algorithm));
    const auto options = kprim::any_algorithm({.algorithm = algorithm});
    REQUIRE(kprim::reduce(space, empty_float, kprim::Min{}, options) == std::numeric_limits<float>::infinity());
    REQUIRE(kprim::reduce(space, empty_float, kprim::Max{}, options) == -std::numeric_limits<float>::infinity());
    REQUIRE(kprim::reduce(space, empty_int, kprim::Min{}, options) == std::numeric_limits<std::int32_t>::max());
    REQUIRE(kprim::reduce(space, empty_int, kprim::Max{}, options) == std::numeric_limits<std::int32_t>::lowest());
    REQUIRE(kprim::reduce(space, empty_int, kprim::Prod{}, options) == 1);
  }
}
