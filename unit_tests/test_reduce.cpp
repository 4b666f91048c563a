// kprim::reduce: every space x value type x built-in op x algorithm (every rung of the ladder),
// the tunings and sizes of kprim_test::runs().

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <numeric>

using namespace kprim_test;

namespace {

template <class C>
struct ReduceCase {
  using Space = typename C::space;
  using T = typename C::value;
  using Op = typename C::op;
  Space space{};
  Op op{};

  // Calls body(options, n, device input, expected) for every run (algorithm, tuning) and size.
  // A run the algorithm refuses checks the error instead.
  template <class Body>
  void for_each_input(Body&& body) const {
    for (const auto& run : runs<kprim::ReduceAlgorithm>(space)) {
      const auto options = kprim::any_algorithm({.algorithm = run.algorithm, .tuning = run.tuning});
      if (run.refused) {
        INFO(case_name<C>() << ", " << describe(run));
        const auto x = to_space(space, exact_input<T, Op>(100, 1), "x");
        REQUIRE_THROWS_WITH(kprim::reduce(space, x, op, options),
                            Catch::Matchers::StartsWith("kprim::reduce: ") &&
                                Catch::Matchers::ContainsSubstring("complete_unroll_warps8"));
        continue;
      }
      for (const std::int64_t n : run.sizes) {
        const std::vector<T> host = exact_input<T, Op>(n, 1000 + n);
        const T expected = std::reduce(host.begin(), host.end(), kprim::identity_of<T>(op), op);
        const auto x = to_space(space, host, "x");
        INFO(case_name<C>() << ", " << describe(run) << ", n = " << n);
        body(options, n, x, expected);
      }
    }
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("reduce returns the value on the host", "[reduce]", SpaceValueOp) {
  const ReduceCase<TestType> test;
  test.for_each_input([&](const auto& options, std::int64_t, const auto& x, auto expected) {
    REQUIRE(kprim::reduce(test.space, x, test.op, options) == expected);
  });
}

TEMPLATE_LIST_TEST_CASE("reduce writes rank-0 Views in the space's memory and on the host", "[reduce]",
                        SpaceValueOp) {
  using T = typename TestType::value;
  using Space = typename TestType::space;
  const ReduceCase<TestType> test;
  test.for_each_input([&](const auto& options, std::int64_t, const auto& x, T expected) {
    Kokkos::View<T, typename Space::memory_space> in_space("in_space");
    Kokkos::View<T, Kokkos::HostSpace> on_host("on_host");
    kprim::reduce(test.space, x, in_space, test.op, options);
    kprim::reduce(test.space, x, on_host, test.op, options);
    test.space.fence();
    T from_space{};
    Kokkos::deep_copy(from_space, in_space);
    REQUIRE(from_space == expected);
    REQUIRE(on_host() == expected);
  });
}

TEMPLATE_LIST_TEST_CASE("reduce reads strided, LayoutLeft and const Views", "[reduce]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  const Op op;
  for (const std::int64_t n : {0, 1, 33, 1000, 100'003}) {
    INFO(case_name<TestType>() << ", n = " << n);
    // Every third element of a larger array, starting at offset 2.
    const std::vector<T> host = exact_input<T, Op>(3 * n + 2, 77 + n);
    const auto storage = to_space(space, host, "storage");
    const Kokkos::View<const T*, Kokkos::LayoutStride, typename Space::memory_space> strided =
        Kokkos::subview(storage, Kokkos::pair<std::int64_t, std::int64_t>(2, 3 * n + 2));
    Kokkos::View<const T*, Kokkos::LayoutStride, typename Space::memory_space> every_third(
        strided.data(), Kokkos::LayoutStride(n, 3));
    std::vector<T> picked;
    for (std::int64_t i = 0; i < n; ++i) picked.push_back(host[2 + 3 * i]);
    const T expected = std::reduce(picked.begin(), picked.end(), kprim::identity_of<T>(op), op);
    Kokkos::View<T*, Kokkos::LayoutLeft, typename Space::memory_space> left("left", n);
    Kokkos::deep_copy(left, Kokkos::View<const T*, typename Space::memory_space>(storage.data(), n));
    const T expected_left = std::reduce(host.begin(), host.begin() + n, kprim::identity_of<T>(op), op);
    for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
      INFO(kprim::to_string(algorithm));
      REQUIRE(kprim::reduce(space, every_third, op, kprim::any_algorithm({.algorithm = algorithm})) == expected);
      REQUIRE(kprim::reduce(space, left, op, kprim::any_algorithm({.algorithm = algorithm})) == expected_left);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("reduce without a space argument uses the View's default instance", "[reduce]",
                        SpaceValue) {
  using T = typename TestType::value;
  const std::vector<T> host = exact_input<T, kprim::Sum>(5000, 5);
  const auto x = to_space(typename TestType::space{}, host, "x");
  const T expected = std::reduce(host.begin(), host.end(), T(0));
  REQUIRE(kprim::reduce(x) == expected);
  Kokkos::View<T, Kokkos::HostSpace> result("result");
  kprim::reduce(x, result, kprim::Max{});
  Kokkos::fence();
  REQUIRE(result() == *std::max_element(host.begin(), host.end()));
}

TEMPLATE_LIST_TEST_CASE("reduce into a wider accumulator avoids overflow", "[reduce]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const std::vector<std::int32_t> host(100'000, std::numeric_limits<std::int32_t>::max());
  const auto x = to_space(space, host, "x");
  Kokkos::View<std::int64_t, Kokkos::HostSpace> wide("wide");
  kprim::reduce(space, x, wide);
  space.fence();
  REQUIRE(wide() == std::int64_t(100'000) * std::numeric_limits<std::int32_t>::max());
}

TEMPLATE_LIST_TEST_CASE("reduce of random floating-point data stays within the rounding bound", "[reduce]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const std::int64_t n : {1000, 65'537, 1'000'003, 4'000'037}) {
    if (n > max_test_size()) continue;
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<T> host(n);
    long double exact = 0, magnitude = 0;
    for (auto& v : host) {
      v = T(uniform(rng));
      exact += v;
      magnitude += std::abs(v);
    }
    // Any order of n - 1 additions errs by at most (n - 1) u sum|x| (Higham, to first order).
    const long double bound = (n - 1) * (long double)(std::numeric_limits<T>::epsilon() / 2) * magnitude * 1.01L;
    const auto x = to_space(space, host, "x");
    for (const auto& tuning : tunings(space)) {
      INFO(case_name<TestType>() << ", n = " << n << ", " << describe(tuning));
      const T sum = kprim::reduce(space, x, kprim::Sum{},
                                  kprim::any_algorithm({.algorithm = automatic_for<kprim::ReduceAlgorithm>(space, tuning),
                                                        .tuning = tuning}));
      REQUIRE(std::abs((long double)sum - exact) <= bound);
    }
    if (n != 65'537 && n != 1'000'003) continue;  // every algorithm, default tuning, two sizes
    for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>()) {
      INFO(case_name<TestType>() << ", n = " << n << ", " << kprim::to_string(algorithm));
      const T sum = kprim::reduce(space, x, kprim::Sum{}, kprim::any_algorithm({.algorithm = algorithm}));
      REQUIRE(std::abs((long double)sum - exact) <= bound);
    }
  }
}

namespace {
/// The pairwise (cascade) sum of v[begin, end) in T: rounding error grows with log2 n.
template <class T>
T pairwise_sum(const std::vector<T>& v, std::size_t begin, std::size_t end) {
  if (end - begin <= 8) {
    T sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += v[i];
    return sum;
  }
  const std::size_t middle = begin + (end - begin) / 2;
  return pairwise_sum(v, begin, middle) + pairwise_sum(v, middle, end);
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("the default Sum of 2^24 values errs like a pairwise sum (log n, not n)", "[reduce][dot]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const std::int64_t n = std::int64_t(1) << 24;
  if (n > max_test_size()) SKIP("n = 2^24 is above KPRIM_TEST_MAX_N");
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<T> host(n);
  long double exact = 0;
  for (auto& v : host) {
    v = T(uniform(rng));
    exact += v;
  }
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  // Nonnegative data: pairwise summation errs by at most ceil(log2 n) u sum|x| (Higham 4.2); the
  // old host fold (a few chains of n / 16 additions each) erred 8.4e-6 for float, 6x this bound.
  const long double log_n_bound = 24 * u * exact;
  const long double pairwise_error = std::abs((long double)pairwise_sum(host, 0, host.size()) - exact);
  const long double near_pairwise = 4 * std::max(pairwise_error, u * exact);
  const auto x = to_space(space, host, "x");
  const auto ones = to_space(space, std::vector<T>(n, T(1)), "ones");
  const long double reduced = kprim::reduce(space, x);
  const long double dotted = kprim::dot(space, x, ones);
  INFO(case_name<TestType>() << ": relative errors: reduce " << double(std::abs(reduced - exact) / exact) << ", dot "
                             << double(std::abs(dotted - exact) / exact) << ", pairwise "
                             << double(pairwise_error / exact));
  CHECK(std::abs(reduced - exact) <= log_n_bound);
  CHECK(std::abs(reduced - exact) <= near_pairwise);
  CHECK(std::abs(dotted - exact) <= log_n_bound);
  CHECK(std::abs(dotted - exact) <= near_pairwise);
}

TEMPLATE_LIST_TEST_CASE("complete_unroll_warps8 refuses team sizes that are not a power of two", "[reduce]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  if (max_team_size(space) < 3) SKIP(Space::name() << " runs teams of at most 2 threads");
  const auto x = to_space(space, std::vector<double>(1000, 1.0), "x");
  using Unrolled = kprim::ReduceWith<kprim::ReduceAlgorithm::complete_unroll_warps8>;
  const Unrolled options{.tuning = {.team_size = 3}};
  REQUIRE_THROWS_AS(kprim::reduce(space, x, kprim::Sum{}, options), kprim::invalid_argument);
  REQUIRE_THROWS_WITH(kprim::dot(space, x, x, options),
                      Catch::Matchers::StartsWith("kprim::dot: ") && Catch::Matchers::ContainsSubstring("got 3"));
  // Powers of two are fine.
  REQUIRE(kprim::reduce(space, x, kprim::Sum{}, Unrolled{.tuning = {.team_size = 2}}) ==
          1000.0);
}
