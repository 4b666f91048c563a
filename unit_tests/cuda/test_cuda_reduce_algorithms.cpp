// Every named reduce algorithm on Kokkos::Cuda (cuda_algorithm_cases.hpp).
#include "cuda_algorithm_cases.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <numeric>

using namespace kprim_test;

TEMPLATE_LIST_TEST_CASE("every reduce algorithm on CUDA", "[cuda][algorithms]", CudaAlgorithmCases) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : algorithm_sizes) {
    if (n > max_test_size()) continue;  // KPRIM_TEST_MAX_N caps the sanitizer runs
    const std::vector<T> host = exact_input<T, Op>(n, 300 + n);
    const T expected = std::reduce(host.begin(), host.end(), kprim::identity_of<T>(op), op);
    const auto x = to_space(space, host, "x");
    for (const kprim::ReduceAlgorithm algorithm : kprim::all_reduce_algorithms)
      for (const kprim::Tuning& tuning : algorithm_tunings()) {
        INFO(case_name<TestType>() << ", " << kprim::to_string(algorithm) << ", " << describe(tuning) << ", n = " << n);
        const auto options = kprim::any_algorithm({.algorithm = algorithm, .tuning = tuning});
        if (refuses_tuning(algorithm, tuning)) {
          REQUIRE_THROWS_WITH(kprim::reduce(space, x, op, options),
                              Catch::Matchers::ContainsSubstring("power of two"));
          continue;
        }
        REQUIRE(kprim::reduce(space, x, op, options) == expected);
        if constexpr (std::is_same_v<Op, kprim::Sum>) {
          T dot_expected = 0;
          for (const T v : host) dot_expected += v * v;
          REQUIRE(kprim::dot(space, x, x, options) == dot_expected);
        }
      }
  }
}

