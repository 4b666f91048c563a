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
  // A fresh instance: the limit applies when a buffer has to grow, and the default instance may
  // already hold a large one from earlier tests (the 2^32-element ones, on a GPU). Host backends
  // give every instance the same id, so theirs share the default instance's buffer.
  const auto instances = Kokkos::Experimental::partition_space(Space{}, 1, 1);
  const Space& space = instances[1];
  const bool fresh_buffer =
      Kokkos::Tools::Experimental::device_id(space) != Kokkos::Tools::Experimental::device_id(Space{});
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
  // With small tiles every call needs more than 64 bytes (per-tile state, per-team partials): on a
  // fresh buffer the limit must have refused some. A shared buffer may already be large enough.
  INFO(refused << " calls refused; fresh buffer: " << fresh_buffer);
  if (fresh_buffer) CHECK(refused > 0);
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
  // A fresh instance, and a call whose temporaries (one value per 2 elements, then per 4, ...)
  // are far larger than anything an earlier test left in a buffer: it must allocate. (Kokkos may
  // give a new instance the id, hence the buffer, of one destroyed before.)
  const kprim::ScanWith<kprim::ScanAlgorithm::three_phase> big_temporaries{
      .tuning = {.team_size = 1, .items_per_thread = 2}};
  const auto instances = Kokkos::Experimental::partition_space(Space{}, 1, 1);
  const Space& space = instances[1];
  const std::int64_t n = std::min<std::int64_t>(1'000'003, max_test_size());
  std::vector<float> host(n, 1.0f);
  const auto in = to_space(space, host, "in");
  Guarded<float, Space> out(n, -5.5f);

  // Take every byte the device will give, in shrinking chunks: first from the driver, then from
  // Kokkos' own allocator (which may keep a pool of its own).
  std::vector<void*> ballast;
  for (std::size_t chunk = std::size_t(1) << 30; chunk >= 256; chunk /= 2) {  // down to less than any temporary
    void* p = nullptr;
    while (cudaMalloc(&p, chunk) == cudaSuccess) ballast.push_back(p);
    (void)cudaGetLastError();
  }
  std::vector<Kokkos::View<unsigned char*, Kokkos::CudaSpace>> kokkos_ballast;
  for (std::size_t chunk = std::size_t(1) << 30; chunk >= 256; chunk /= 2) {
    try {
      for (;;) kokkos_ballast.emplace_back(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ballast"), chunk);
    } catch (const std::exception&) {  // Kokkos reports the failed allocation; try a smaller chunk
    }
  }
  bool threw = false;
  std::string message;
  try {
    kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, big_temporaries);
    space.fence();
  } catch (const kprim::allocation_error& error) {
    threw = true;
    message = error.what();
  } catch (const std::bad_alloc& error) {  // caught too, but it should be kprim's own
    message = std::string("a std::bad_alloc that is not kprim::allocation_error: ") + error.what();
  }
  for (void* p : ballast) cudaFree(p);
  const std::size_t kokkos_chunks = kokkos_ballast.size();
  kokkos_ballast.clear();
  INFO(ballast.size() << " + " << kokkos_chunks << " ballast allocations; " << message);
  CHECK(threw);
  CHECK_THAT(message, StartsWith("kprim::inclusive_scan: cannot allocate") && ContainsSubstring("Cuda"));
  CHECK(out.untouched());
  CHECK(out.values() == std::vector<float>(n, -5.5f));

  // Memory is back: the same call on the same instance works.
  kprim::inclusive_scan(space, in, out.window(), kprim::Sum{}, big_temporaries);
  space.fence();
  const auto values = out.values();
  CHECK(values.back() == float(n));
  CHECK(values.front() == 1.0f);
  CHECK(out.untouched());
}

TEST_CASE("the CUDA reduces' zeroed state counts against the limit: refused by name, then recovery", "[faults][cuda]") {
  using Space = Kokkos::Cuda;
  const auto instances = Kokkos::Experimental::partition_space(Space{}, 1, 1);
  const Space& space = instances[1];
  // Twice the limit test's size: the bitwise reduce's tree nodes (its zeroed state, growing with n)
  // outgrow whatever that test left on an instance that reuses its id, so this call must allocate.
  const std::int64_t n = 2 * std::min<std::int64_t>(1'000'003, max_test_size()) + 1;
  std::vector<double> host(n);
  double sum = 0, squares = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    host[i] = double(i % 3);
    sum += host[i];
    squares += host[i] * host[i];
  }
  const auto in = to_space(space, host, "in");
  const kprim::ReduceOptions bitwise{.determinism = kprim::Determinism::bitwise};
  {
    const LimitGuard limit(64);
    for (const bool dot : {false, true}) {
      INFO((dot ? "kprim::dot" : "kprim::reduce"));
      Guarded<double, Space> result(1, -5.5);
      std::string message = "no exception";
      try {
        if (dot) kprim::dot(space, in, in, result.slot(), bitwise);
        else kprim::reduce(space, in, result.slot(), kprim::Sum{}, bitwise);
        space.fence();
      } catch (const kprim::allocation_error& error) {
        message = error.what();
      }
      CHECK_THAT(message, StartsWith(dot ? "kprim::dot: cannot allocate" : "kprim::reduce: cannot allocate") &&
                              ContainsSubstring("Cuda") && ContainsSubstring("limit"));
      CHECK(result.untouched());
      CHECK(result.values()[0] == -5.5);
    }
  }
  // Lifted: the same calls work, and keep working (the kernels leave the state zeroed).
  for (int round = 0; round < 3; ++round) {
    CHECK(kprim::reduce(space, in, kprim::Sum{}, bitwise) == sum);
    CHECK(kprim::dot(space, in, in, bitwise) == squares);
    CHECK(kprim::reduce(space, in) == sum);
    CHECK(kprim::dot(space, in, in) == squares);
  }
}
#endif
