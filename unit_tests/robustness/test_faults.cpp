// Temporary storage that cannot be had: a kprim::allocation_error naming the call, nothing
// written, nothing leaked, and the next call works.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

using namespace kprim_test;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

namespace {

/// Restores the unlimited default however the test ends.
struct LimitGuard {
  explicit LimitGuard(std::size_t bytes) { kprim::set_temporary_storage_limit(bytes); }
  ~LimitGuard() { kprim::set_temporary_storage_limit(kprim::unlimited_temporary_storage); }
};

/// Calls `primitive`, which must either throw kprim::allocation_error naming `function` with the
/// outputs untouched, or (when its temporaries fit) give the right answer. Returns whether it threw.
template <class Call, class Untouched, class Correct>
bool refused_or_correct(const char* function, Call call, Untouched untouched, Correct correct) {
  try {
    call();
  } catch (const kprim::allocation_error& error) {
    INFO(error.what());
    CHECK_THAT(error.what(), StartsWith(std::string(function) + ": cannot allocate"));
    CHECK(untouched());
    return true;
  }
  CHECK(correct());
  return false;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("a temporary-storage limit refuses calls cleanly, and lifting it lets them run",
                        "[faults]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const std::int64_t n = std::min<std::int64_t>(1'000'003, max_test_size());
  std::vector<double> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = double(i % 3);
  const auto in = to_space(space, host, "in");
  const auto inclusive = reference_inclusive(host, kprim::Sum{});
  double expected_total = 0;
  const auto exclusive = reference_exclusive(host, kprim::Sum{}, 0.0, expected_total);
  const double sum = expected_total;

  int refused = 0;
  {
    const LimitGuard limit(64);  // bytes: less than any multi-tile call needs
    REQUIRE(kprim::temporary_storage_limit() == 64);
    for (const auto& options : scan_variants(space)) {
      INFO(describe(options));
      Guarded<double, Space> out(n, -5.5);
      refused += refused_or_correct(
          "kprim::inclusive_scan", [&] { kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, options); },
          [&] { return out.untouched() && out.values() == std::vector<double>(n, -5.5); },
          [&] { return out.values() == inclusive && out.untouched(); });
      refused += refused_or_correct(
          "kprim::exclusive_scan", [&] { kprim::exclusive_scan(space, in, out.window(), 0.0, kprim::Sum{}, options); },
          [&] { return out.untouched(); }, [&] { return out.values() == exclusive && out.untouched(); });
    }
    for (const auto& options : reduce_variants(space)) {
      INFO(describe(options));
      Guarded<double, Space> result(1, -5.5);
      refused += refused_or_correct(
          "kprim::reduce", [&] { kprim::reduce(space, in, result.slot(), kprim::Sum{}, options); },
          [&] { return result.untouched() && result.values()[0] == -5.5; },
          [&] { return result.values()[0] == sum && result.untouched(); });
    }
  }
  // Most configurations of a million-element call need more than 64 bytes (per-tile state,
  // per-team partials); the limit must have refused some.
  CHECK(refused > 0);
  CHECK(kprim::temporary_storage_limit() == kprim::unlimited_temporary_storage);

  // The same calls work once the limit is lifted.
  for (const auto& options : scan_variants(space)) {
    INFO(describe(options));
    Guarded<double, Space> out(n, -5.5);
    kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, options);
    space.fence();
    CHECK(out.values() == inclusive);
    CHECK(out.untouched());
  }
  for (const auto& options : reduce_variants(space)) {
    INFO(describe(options));
    CHECK(kprim::reduce(space, in, kprim::Sum{}, options) == sum);
  }
}

#if defined(KOKKOS_ENABLE_CUDA)
TEST_CASE("a full GPU: kprim::allocation_error from the real allocator, then recovery", "[faults][cuda]") {
  using Space = Kokkos::Cuda;
  // A fresh instance, so no temporary buffer is held for it yet.
  const auto instances = Kokkos::Experimental::partition_space(Space{}, 1, 1);
  const Space& space = instances[1];
  const std::int64_t n = std::min<std::int64_t>(1'000'003, max_test_size());
  std::vector<float> host(n, 1.0f);
  const auto in = to_space(space, host, "in");
  Guarded<float, Space> out(n, -5.5f);

  // Take every byte the device will give, in shrinking chunks.
  std::vector<void*> ballast;
  for (std::size_t chunk = std::size_t(1) << 30; chunk >= 256; chunk /= 2) {  // down to less than any temporary
    void* p = nullptr;
    while (cudaMalloc(&p, chunk) == cudaSuccess) ballast.push_back(p);
    (void)cudaGetLastError();
  }
  bool threw = false;
  std::string message;
  try {
    kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, {.algorithm = kprim::ScanAlgorithm::three_phase});
    space.fence();
  } catch (const kprim::allocation_error& error) {
    threw = true;
    message = error.what();
  } catch (const std::bad_alloc& error) {  // caught too, but it should be kprim's own
    message = std::string("a std::bad_alloc that is not kprim::allocation_error: ") + error.what();
  }
  for (void* p : ballast) cudaFree(p);
  INFO(ballast.size() << " ballast allocations; " << message);
  CHECK(threw);
  CHECK_THAT(message, StartsWith("kprim::inclusive_scan: cannot allocate") && ContainsSubstring("Cuda"));
  CHECK(out.untouched());
  CHECK(out.values() == std::vector<float>(n, -5.5f));

  // Memory is back: the same call on the same instance works.
  kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, {.algorithm = kprim::ScanAlgorithm::three_phase});
  space.fence();
  const auto values = out.values();
  CHECK(values.back() == float(n));
  CHECK(values.front() == 1.0f);
  CHECK(out.untouched());
}
#endif
