// Every named scan algorithm on Kokkos::Cuda (cuda_algorithm_cases.hpp).
#include "cuda_algorithm_cases.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <numeric>

using namespace kprim_test;

TEMPLATE_LIST_TEST_CASE("every scan algorithm on CUDA", "[cuda][algorithms]", CudaAlgorithmCases) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : algorithm_sizes) {
    if (n > max_test_size()) continue;  // KPRIM_TEST_MAX_N caps the sanitizer runs
    const std::vector<T> host = exact_input<T, Op>(n, 700 + n);
    const T init = exact_init<T, Op>();
    std::vector<T> inclusive(n), exclusive(n);
    std::inclusive_scan(host.begin(), host.end(), inclusive.begin(), op);
    std::exclusive_scan(host.begin(), host.end(), exclusive.begin(), init, op);
    const auto x = to_space(space, host, "x");
    for (const kprim::ScanAlgorithm algorithm : kprim::all_scan_algorithms)
      for (const kprim::Tuning& tuning : algorithm_tunings()) {
        INFO(case_name<TestType>() << ", " << kprim::to_string(algorithm) << ", " << describe(tuning) << ", n = " << n);
        const auto options = kprim::any_algorithm({.algorithm = algorithm, .tuning = tuning});
        Kokkos::View<T*, Kokkos::CudaSpace> out("out", n);
        kprim::inclusive_scan(space, x, out, op, options);
        REQUIRE(first_mismatch(to_host(out), inclusive) < 0);
        kprim::exclusive_scan(space, x, out, init, op, options);
        REQUIRE(first_mismatch(to_host(out), exclusive) < 0);
        const auto in_place = to_space(space, host, "in_place");
        kprim::inclusive_scan(space, in_place, in_place, op, options);
        REQUIRE(first_mismatch(to_host(in_place), inclusive) < 0);
      }
  }
}
