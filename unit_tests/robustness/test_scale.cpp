// Inputs past 2^31 (and 2^32) elements: every index, offset and tile count must be 64-bit.
// The inputs are chosen so that the exact answer is known in closed form and any order of
// operations reaches it; an index that wraps at 2^31 or 2^32 reads a different pattern value
// (the periods 7 and 1,000,003 divide neither), so it cannot go unnoticed.
//
// They need tens of GB: they run where the space's memory holds them and are skipped (with the
// reason) elsewhere. Host spaces run them only with KPRIM_TEST_SCALE=1 (minutes on a laptop).

#include "../test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <unistd.h>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

using namespace kprim_test;

namespace {

constexpr std::int64_t big_n = (std::int64_t(1) << 32) + 17;       // int32 and float
constexpr std::int64_t big_n_double = (std::int64_t(1) << 31) + 3;  // double
constexpr std::int64_t sparse_period = 1'000'003;

/// x(i) = i % 7 - 3: every run of 7 sums to 0, so all partial sums stay within ±12 and are exact
/// in int32, float and double whatever the order.
KOKKOS_FUNCTION constexpr std::int64_t cycle_value(std::int64_t i) { return i % 7 - 3; }
/// sum of cycle_value(0 .. i)
KOKKOS_FUNCTION constexpr std::int64_t cycle_prefix(std::int64_t i) {
  const std::int64_t r = i % 7;
  return r * (r + 1) / 2 - 3 * (r + 1);
}
/// x(i) = 1 at multiples of 1,000,003, else 0: sums count the multiples (4295 for big_n).
KOKKOS_FUNCTION constexpr std::int64_t sparse_value(std::int64_t i) { return i % sparse_period == 0 ? 1 : 0; }
KOKKOS_FUNCTION constexpr std::int64_t sparse_prefix(std::int64_t i) { return i / sparse_period + 1; }

/// Bytes the space can still allocate, or 0 when it should not be tried (host spaces without
/// KPRIM_TEST_SCALE=1).
template <class Space>
std::size_t available_bytes(std::string& why) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      why = "cudaMemGetInfo failed";
      return 0;
    }
    why = std::to_string(free >> 20) + " MiB free on the GPU";
    return free;
  }
#endif
  if (!Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible) {
    why = "no way to ask this space for its free memory";
    return 0;
  }
  const char* opt_in = std::getenv("KPRIM_TEST_SCALE");
  if (opt_in == nullptr || std::string(opt_in) != "1") {
    why = "host spaces run the 2^32-element tests only with KPRIM_TEST_SCALE=1";
    return 0;
  }
  const std::size_t bytes = std::size_t(sysconf(_SC_AVPHYS_PAGES)) * std::size_t(sysconf(_SC_PAGESIZE));
  why = std::to_string(bytes >> 20) + " MiB of host memory available";
  return bytes;
}

/// True when `bytes` fit (with 10% to spare); otherwise SKIPs with the reason.
template <class Space>
bool fits(std::size_t bytes) {
  std::string why;
  const std::size_t available = available_bytes<Space>(why);
  if (available == 0 || bytes + bytes / 10 > available) {
    SKIP(Space::name() << ": needs " << (bytes >> 20) << " MiB; " << why);
    return false;
  }
  return true;
}

template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> filled(const Space& space, std::int64_t n, bool sparse) {
  Kokkos::View<T*, typename Space::memory_space> x(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "x"), n);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = T(sparse ? sparse_value(i) : cycle_value(i)); });
  return x;
}

/// Elements of `out` that differ from the closed-form inclusive (or exclusive, seeded with 0)
/// prefix, counted on the device; `first` gets the lowest such index (or -1).
template <class Space, class Out>
std::int64_t prefix_mismatches(const Space& space, const Out& out, bool sparse, bool exclusive,
                               std::int64_t& first) {
  using T = typename Out::non_const_value_type;
  const std::int64_t n = std::int64_t(out.extent(0));
  std::int64_t count = 0, lowest = n;
  Kokkos::parallel_reduce(
      "check", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t& bad, std::int64_t& low) {
        std::int64_t expected = 0;
        if (!exclusive) expected = sparse ? sparse_prefix(i) : cycle_prefix(i);
        else if (i > 0) expected = sparse ? sparse_prefix(i - 1) : cycle_prefix(i - 1);
        if (!(out(i) == T(expected))) {
          ++bad;
          if (i < low) low = i;
        }
      },
      count, Kokkos::Min<std::int64_t>(lowest));
  first = count ? lowest : -1;
  return count;
}

/// Runs reduce, dot (with ones), Min, Max and both scans on n elements of T.
template <class T, class Space>
void check_everything_at(const Space& space, std::int64_t n, bool sparse) {
  using memory_space = typename Space::memory_space;
  const auto x = filled<T>(space, n, sparse);
  const std::int64_t total = sparse ? sparse_prefix(n - 1) : cycle_prefix(n - 1);
  INFO(Space::name() << ", n = " << n << (sparse ? ", sparse ones" : ", i % 7 - 3"));

  Kokkos::View<T*, memory_space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  Kokkos::deep_copy(space, out, T(1));  // y of the dot products; the scans overwrite it later
  for (const auto determinism : {kprim::Determinism::fastest, kprim::Determinism::bitwise}) {
    INFO("determinism " << kprim::to_string(determinism));
    CHECK(kprim::reduce(space, x, kprim::Sum{}, {.determinism = determinism}) == T(total));
    CHECK(kprim::dot(space, x, out, {.determinism = determinism}) == T(total));
  }
  CHECK(kprim::reduce(space, x, kprim::Sum{}, kprim::ReduceWith<kprim::ReduceAlgorithm::tree>{}) == T(total));
  CHECK(kprim::reduce(space, x, kprim::Sum{}, kprim::ReduceWith<kprim::ReduceAlgorithm::single_pass>{}) == T(total));

  // A unique largest value in the last element: found only if the tail past 2^32 is read.
  Kokkos::deep_copy(space, Kokkos::subview(x, n - 1), T(5));
  CHECK(kprim::reduce(space, x, kprim::Max{}) == T(5));
  CHECK(kprim::reduce(space, x, kprim::Min{}) == T(sparse ? 0 : -3));
  Kokkos::deep_copy(space, Kokkos::subview(x, n - 1), T(sparse ? sparse_value(n - 1) : cycle_value(n - 1)));

  Kokkos::View<T, Kokkos::HostSpace> scan_total("scan_total");
  const std::vector<kprim::AnyAlgorithm<kprim::ScanOptions>> scans{
      kprim::any_algorithm(kprim::ScanOptions{}),
      kprim::any_algorithm(kprim::ScanOptions{.determinism = kprim::Determinism::bitwise}),
      kprim::any_algorithm({.algorithm = kprim::ScanAlgorithm::three_phase}),
      kprim::any_algorithm({.algorithm = kprim::ScanAlgorithm::decoupled_lookback})};
  for (const auto& options : scans) {
    INFO("scan algorithm " << kprim::to_string(options.algorithm) << ", determinism "
                           << kprim::to_string(options.determinism));
    std::int64_t first = -1;
    kprim::inclusive_scan(space, x, out, scan_total, kprim::Sum{}, options);
    space.fence();
    CHECK(prefix_mismatches(space, out, sparse, false, first) == 0);
    CHECK(first == -1);
    CHECK(scan_total() == T(total));
    kprim::exclusive_scan(space, x, out, T(0), scan_total, kprim::Sum{}, options);
    space.fence();
    CHECK(prefix_mismatches(space, out, sparse, true, first) == 0);
    CHECK(first == -1);
    CHECK(scan_total() == T(total));
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("reduce, dot and scans of 2^32 + 17 int32 elements", "[scale]", SpaceOnly) {
  using Space = typename TestType::space;
  if (!fits<Space>(2 * std::size_t(big_n) * sizeof(std::int32_t))) return;
  check_everything_at<std::int32_t>(Space{}, big_n, false);
}

TEMPLATE_LIST_TEST_CASE("reduce, dot and scans of 2^32 + 17 float elements", "[scale]", SpaceOnly) {
  using Space = typename TestType::space;
  if (!fits<Space>(2 * std::size_t(big_n) * sizeof(float))) return;
  check_everything_at<float>(Space{}, big_n, true);
}

TEMPLATE_LIST_TEST_CASE("reduce, dot and scans of 2^31 + 3 double elements", "[scale]", SpaceOnly) {
  using Space = typename TestType::space;
  if (!fits<Space>(2 * std::size_t(big_n_double) * sizeof(double))) return;
  check_everything_at<double>(Space{}, big_n_double, false);
}

TEMPLATE_LIST_TEST_CASE("2^32 + 17 int32 elements summed in an int64 accumulator", "[scale]", SpaceOnly) {
  using Space = typename TestType::space;
  if (!fits<Space>(std::size_t(big_n) * (sizeof(std::int32_t) + sizeof(std::int64_t)))) return;
  const Space space;
  // All ones plus 2^31 - 1 at both ends: 2^32 + 15 + 2 (2^31 - 1) overflows int32 many times over.
  Kokkos::View<std::int32_t*, typename Space::memory_space> x(Kokkos::view_alloc(space, "x"), big_n);
  Kokkos::deep_copy(space, x, 1);
  constexpr std::int32_t top = std::numeric_limits<std::int32_t>::max();
  Kokkos::deep_copy(space, Kokkos::subview(x, 0), top);
  Kokkos::deep_copy(space, Kokkos::subview(x, big_n - 1), top);
  const std::int64_t expected = (big_n - 2) + 2 * std::int64_t(top);
  CHECK(kprim::reduce<std::int64_t>(space, x) == expected);
  CHECK(kprim::reduce<std::int64_t>(space, x, kprim::Sum{}, {.determinism = kprim::Determinism::bitwise}) ==
        expected);
  CHECK(kprim::dot<std::int64_t>(space, x, x) ==
        (big_n - 2) + 2 * std::int64_t(top) * std::int64_t(top));
  Kokkos::View<std::int64_t*, typename Space::memory_space> wide(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "wide"), big_n);
  kprim::inclusive_scan(space, x, wide);
  std::int64_t last = 0, middle = 0;
  Kokkos::deep_copy(space, Kokkos::View<std::int64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&last), Kokkos::subview(wide, big_n - 1));
  Kokkos::deep_copy(space, Kokkos::View<std::int64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&middle),
                    Kokkos::subview(wide, std::int64_t(1) << 32));
  space.fence();
  CHECK(last == expected);
  CHECK(middle == std::int64_t(top) + (std::int64_t(1) << 32));
}
