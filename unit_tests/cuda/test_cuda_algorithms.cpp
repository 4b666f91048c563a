// Every named algorithm (the ladder rungs and the portable single-pass kernels) on Kokkos::Cuda
// for a few types x ops, at sizes around warps, teams and tiles, with the default shape and with
// odd teams of 33 threads (complete_unroll_warps8 must refuse those). A GPU-sized companion of the
// rung axis in the main suite, kept small so it builds quickly with nvcc.

#include "../test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <numeric>

using namespace kprim_test;

namespace {

using CudaAlgorithmCases =
    typename cases<std::tuple<Kokkos::Cuda>, std::tuple<std::int32_t, float, double>,
                   std::tuple<kprim::Sum, kprim::Max>>::type;

const std::vector<std::int64_t> algorithm_sizes{0,    1,    2,    31,   32,    33,     255,      256,
                                                257,  2047, 2049, 4095, 4097,  65537,  1'000'003};

std::vector<kprim::Tuning> algorithm_tunings() { return {{}, {33, 2, 5}}; }

bool refuses(kprim::ReduceAlgorithm algorithm, const kprim::Tuning& tuning) {
  return algorithm == kprim::ReduceAlgorithm::complete_unroll_warps8 && tuning.team_size == 33;
}

}  // namespace

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
        const kprim::ReduceOptions options{.algorithm = algorithm, .tuning = tuning};
        if (refuses(algorithm, tuning)) {
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
        const kprim::ScanOptions options{.algorithm = algorithm, .tuning = tuning};
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
