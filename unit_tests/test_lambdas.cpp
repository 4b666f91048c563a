// Lambdas in, lambdas out: transform_reduce, the transform scans, exclusive_scan_each and the
// kprim::parallel_scan adapter, copy_if / copy_index_if, init values and ops without identity().
// Every body runs on every enabled space, through `automatic` and every selectable algorithm,
// at sizes around the tiles, and checks against a host reference; where kprim has hand-written
// CUDA kernels, that they ran. The CRS test takes a Kokkos::parallel_scan lambda of the pattern
// applications use and checks kprim's offsets equal Kokkos' own on the same data.
//
// The lambdas live in named function templates (namespace lambda_tests), not in the test
// bodies: nvcc's extended lambdas need an enclosing function it can name.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace kprim_test;

namespace lambda_tests {

/// 2x2 matrices of wrapping integers under the product: associative, not commutative, exact.
struct Mat {
  std::uint32_t a, b, c, d;
  KOKKOS_FUNCTION friend bool operator==(const Mat& x, const Mat& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
  friend const Mat& operator+(const Mat& m) { return m; }
  friend std::ostream& operator<<(std::ostream& os, const Mat& m) {
    return os << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
  }
};
KOKKOS_INLINE_FUNCTION Mat mat_product(const Mat& x, const Mat& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
KOKKOS_INLINE_FUNCTION Mat mat_of(std::int64_t i) {
  const auto u = std::uint32_t(i * 2654435761u);
  return {u | 1u, u >> 7, u >> 13, (u >> 3) | 1u};
}

/// What a user writes for a sum: a functor with no identity() and no is_commutative.
struct PlainPlus {
  template <class T>
  KOKKOS_FUNCTION T operator()(const T& a, const T& b) const { return a + b; }
};

template <class Space>
using Int32s = Kokkos::View<std::int32_t*, typename Space::memory_space>;
template <class Space>
using Int64s = Kokkos::View<std::int64_t*, typename Space::memory_space>;

/// counts(i) in [0, 9): the rows of a sparse matrix.
template <class Space>
Int32s<Space> make_counts(const Space& space, std::int64_t n) {
  std::vector<std::int32_t> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = std::int32_t((i * 7 + i / 3) % 9);
  return to_space(space, host, "counts");
}

template <class Space>
std::int64_t sum_counts(const Space& space, const Int32s<Space>& counts, std::int64_t n,
                        kprim::ReduceAlgorithm algorithm) {
  return kprim::transform_reduce(
      space, n, KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(counts(i)); }, kprim::Sum{},
      kprim::any_algorithm({.algorithm = algorithm}));
}

template <class Space>
Mat product_of_matrices(const Space& space, std::int64_t n, kprim::ReduceAlgorithm algorithm) {
  return kprim::transform_reduce(
      space, n, KOKKOS_LAMBDA(std::int64_t i) { return mat_of(i); },
      KOKKOS_LAMBDA(const Mat& x, const Mat& y) { return mat_product(x, y); }, kprim::any_algorithm({.algorithm = algorithm}));
}

template <class Space>
double sum_squares_into_view(const Space& space, const Int32s<Space>& counts, std::int64_t n) {
  Kokkos::View<double, typename Space::memory_space> result("result");
  kprim::transform_reduce(
      space, n, KOKKOS_LAMBDA(std::int64_t i) { return double(counts(i)) * double(counts(i)); }, result);
  double value = 0;
  Kokkos::deep_copy(value, result);
  return value;
}

template <class Space>
std::int64_t std_forms(const Space& space, const Int32s<Space>& counts, std::int64_t& pair_sum, std::int64_t& dot) {
  pair_sum = kprim::transform_reduce(
      space, counts, counts, std::int64_t(5), kprim::Sum{},
      KOKKOS_LAMBDA(std::int32_t a, std::int32_t b) { return std::int64_t(a) - 2 * std::int64_t(b); });
  dot = kprim::transform_reduce(space, counts, counts, std::int64_t(-1), kprim::Sum{}, kprim::Prod{});
  return kprim::transform_reduce(
      space, counts, std::int64_t(3), KOKKOS_LAMBDA(std::int64_t a, std::int64_t b) { return a + b; },
      KOKKOS_LAMBDA(std::int32_t c) { return std::int64_t(c) * 3; });
}

template <class Space>
std::int64_t transform_reduce_empty_without_identity(const Space& space) {
  return kprim::transform_reduce(
      space, 0, KOKKOS_LAMBDA(std::int64_t i) { return i; },
      KOKKOS_LAMBDA(std::int64_t a, std::int64_t b) { return a + b; });
}

template <class Space>
std::int64_t transform_reduce_negative(const Space& space) {
  return kprim::transform_reduce(space, -1, KOKKOS_LAMBDA(std::int64_t i) { return i; });
}

// ---- scans ------------------------------------------------------------------------------------

/// n > 0: an inclusive scan of n values into `out`; n < 0: an exclusive one.
template <class Space>
void transform_scan_bad_arguments(const Space& space, const Int64s<Space>& out, std::int64_t n) {
  const auto index = KOKKOS_LAMBDA(std::int64_t i) { return i; };
  if (n >= 0) kprim::transform_inclusive_scan(space, n, index, out);
  else kprim::transform_exclusive_scan(space, n, index, out, std::int64_t(0));
}

template <class Space>
void transform_scans(const Space& space, const Int32s<Space>& counts, std::int64_t n, const Int64s<Space>& inclusive,
                     const Int64s<Space>& exclusive, const Kokkos::View<std::int64_t, typename Space::memory_space>& total,
                     kprim::ScanAlgorithm algorithm) {
  const auto count = KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(counts(i)); };
  kprim::transform_inclusive_scan(space, n, count, inclusive, kprim::Sum{}, kprim::any_algorithm({.algorithm = algorithm}));
  kprim::transform_exclusive_scan(space, n, count, exclusive, std::int64_t(11), total, kprim::Sum{},
                                  kprim::any_algorithm({.algorithm = algorithm}));
}

template <class Space, class Options>
void matrix_scans(const Space& space, std::int64_t n, const Kokkos::View<Mat*, typename Space::memory_space>& out,
                  const Kokkos::View<Mat*, typename Space::memory_space>& out_exclusive, const Mat& init,
                  const Options& options) {
  const auto product = KOKKOS_LAMBDA(const Mat& x, const Mat& y) { return mat_product(x, y); };
  const auto element = KOKKOS_LAMBDA(std::int64_t i) { return mat_of(i); };
  kprim::transform_inclusive_scan(space, n, element, out, product, options);
  kprim::transform_exclusive_scan(space, n, element, out_exclusive, init, product, options);
}

/// CRS row offsets with kprim::exclusive_scan_each (write(i, prefix)); returns nnz.
template <class Space>
std::int64_t crs_each(const Space& space, const Int32s<Space>& counts, std::int64_t n, const Int64s<Space>& offsets,
                      kprim::ScanAlgorithm algorithm) {
  return kprim::exclusive_scan_each(
      space, n, KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(counts(i)); },
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t prefix) { offsets(i) = prefix; }, std::int64_t(0), kprim::Sum{},
      kprim::any_algorithm({.algorithm = algorithm}));
}

/// The same with the three-argument callback (value too) and a rank-0 total: offsets(i) =
/// prefix + value, the inclusive form.
template <class Space>
void crs_each_inclusive(const Space& space, const Int32s<Space>& counts, std::int64_t n, const Int64s<Space>& offsets,
                        const Kokkos::View<std::int64_t, typename Space::memory_space>& total) {
  kprim::exclusive_scan_each(
      space, n, KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(counts(i)); },
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t prefix, std::int64_t value) { offsets(i) = prefix + value; },
      std::int64_t(0), total);
}

/// One Kokkos scan lambda of a CRS build, as applications write it, run by Kokkos::parallel_scan
/// and then, unchanged, by kprim::parallel_scan over rows [begin, end): Kokkos' offsets and
/// total come back in `kokkos_offsets` / `kokkos_nnz`, kprim's in `offsets` and the result.
template <class Space>
std::int64_t crs_kokkos_then_kprim(const Space& space, const Int32s<Space>& counts, std::int64_t begin,
                                   std::int64_t end, const Int64s<Space>& offsets,
                                   std::vector<std::int64_t>& kokkos_offsets, std::int64_t& kokkos_nnz) {
  const auto row_offsets = KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& partial, const bool final) {
    if (final) offsets(i) = partial;
    partial += counts(i);
  };
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> rows(space, begin, end);
  Kokkos::deep_copy(offsets, -1);
  kokkos_nnz = -1;
  Kokkos::parallel_scan("crs", rows, row_offsets, kokkos_nnz);
  kokkos_offsets = to_host(offsets);
  Kokkos::deep_copy(offsets, -1);
  std::int64_t nnz = -1;
  kprim::parallel_scan("crs", rows, row_offsets, nnz);
  return nnz;
}

/// The same lambda through kprim::parallel_scan with the total in a rank-0 View.
template <class Space>
void crs_adapter_view_total(const Space& space, const Int32s<Space>& counts, std::int64_t n,
                            const Int64s<Space>& offsets, Kokkos::View<std::int64_t, typename Space::memory_space>& nnz) {
  const auto row_offsets = KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& partial, const bool final) {
    if (final) offsets(i) = partial;
    partial += counts(i);
  };
  kprim::parallel_scan(Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n), row_offsets, nnz);
}

template <class Space, class Options>
void scans_without_identity(const Space& space, const Int32s<Space>& in, const Int64s<Space>& out,
                            const Int64s<Space>& out2, const Options& options) {
  kprim::inclusive_scan(space, in, out, KOKKOS_LAMBDA(std::int64_t a, std::int64_t b) { return a + b; },
                        std::int64_t(-3), options);
  kprim::exclusive_scan(space, in, out2, std::int64_t(4), PlainPlus{}, options);
}

template <class Space>
std::int64_t reduce_with_lambda(const Space& space, const Int32s<Space>& x, bool with_init) {
  const auto plus = KOKKOS_LAMBDA(std::int64_t a, std::int64_t b) { return a + b; };
  if (with_init) return kprim::reduce(space, x, std::int64_t(100), plus);
  return kprim::reduce<std::int64_t>(space, x, plus);
}

// ---- compaction -------------------------------------------------------------------------------

template <class Space>
std::int64_t select_positive(const Space& space, const Kokkos::View<float*, typename Space::memory_space>& x,
                             const Kokkos::View<float*, typename Space::memory_space>& out,
                             kprim::ScanAlgorithm algorithm) {
  return kprim::copy_if(space, x, out, KOKKOS_LAMBDA(float v) { return v > 0.0f; }, kprim::any_algorithm({.algorithm = algorithm}));
}

template <class Space>
void select_positive_async(const Space& space, const Kokkos::View<float*, typename Space::memory_space>& x,
                           const Kokkos::View<float*, typename Space::memory_space>& out,
                           const Kokkos::View<std::int64_t, typename Space::memory_space>& count) {
  kprim::copy_if(space, x, out, count, KOKKOS_LAMBDA(float v) { return v > 0.0f; });
}

/// copy_if of 8-byte elements read through a stride (every other element of `pairs`).
template <class Space>
std::int64_t select_strided_doubles(const Space& space, const Kokkos::View<double*, typename Space::memory_space>& pairs,
                                    const Kokkos::View<double*, typename Space::memory_space>& out) {
  const Kokkos::View<double*, Kokkos::LayoutStride, typename Space::memory_space> x(
      pairs.data(), Kokkos::LayoutStride(pairs.extent(0) / 2, 2));
  return kprim::copy_if(space, x, out, KOKKOS_LAMBDA(double v) { return v < 0.0; });
}

/// copy_if of 16-byte elements.
template <class Space>
std::int64_t select_complex(const Space& space,
                            const Kokkos::View<Kokkos::complex<double>*, typename Space::memory_space>& x,
                            const Kokkos::View<Kokkos::complex<double>*, typename Space::memory_space>& out) {
  return kprim::copy_if(space, x, out, KOKKOS_LAMBDA(const Kokkos::complex<double>& v) { return v.imag() > 0.0; });
}

template <class Space>
std::int64_t indices_of_multiples(const Space& space, std::int64_t n, const Int64s<Space>& out) {
  return kprim::copy_index_if(space, n, KOKKOS_LAMBDA(std::int64_t i) { return i % 3 == 1; }, out);
}

}  // namespace lambda_tests

using namespace lambda_tests;

namespace {

/// Sizes around the tiles of every path, and two large ones.
std::vector<std::int64_t> lambda_sizes() {
  std::vector<std::int64_t> list{0, 1, 2, 31, 33, 1000, 4095, 4096, 4097, 6145, 8193, 100'003, 1'000'003};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

std::vector<std::string> pushed_regions;
std::vector<std::string> begun_kernels;  // parallel_for announcements (Kokkos' kernels and kprim's CUDA ones)
void record_region(const char* name) { pushed_regions.emplace_back(name); }
void record_kernel(const char* name, std::uint32_t, std::uint64_t* id) {
  begun_kernels.emplace_back(name);
  *id = begun_kernels.size();
}
struct RegionLog {
  RegionLog() {
    pushed_regions.clear();
    begun_kernels.clear();
    Kokkos::Tools::Experimental::set_push_region_callback(record_region);
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(record_kernel);
  }
  ~RegionLog() {
    Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  }
  RegionLog(const RegionLog&) = delete;
  RegionLog& operator=(const RegionLog&) = delete;
};

/// The call ran the hand-written CUDA kernels on CUDA (and named its path elsewhere); on CUDA
/// those kernels were announced to Kokkos Tools by name ("kprim::cuda::..._kernel").
template <class Space>
void require_path(const char* function) {
  const std::string expected = std::string(function) + (runs_cuda_kernels_v<Space> ? " [cuda]" : " [");
  INFO("regions pushed: " << pushed_regions.size() << (pushed_regions.empty() ? "" : ", last: " + pushed_regions.back()));
  REQUIRE(std::any_of(pushed_regions.begin(), pushed_regions.end(),
                      [&](const std::string& name) { return name.rfind(expected, 0) == 0; }));
  if constexpr (runs_cuda_kernels_v<Space>) {
    INFO("kernels begun: " << begun_kernels.size() << (begun_kernels.empty() ? "" : ", last: " + begun_kernels.back()));
    REQUIRE(std::any_of(begun_kernels.begin(), begun_kernels.end(),
                        [](const std::string& name) { return name.rfind("kprim::cuda::", 0) == 0; }));
  }
  pushed_regions.clear();
  begun_kernels.clear();
}

std::vector<std::int32_t> host_counts(std::int64_t n) {
  std::vector<std::int32_t> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = std::int32_t((i * 7 + i / 3) % 9);
  return host;
}

template <class T>
T scalar_of(const Kokkos::View<T, Kokkos::HostSpace>& v) {
  return v();
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("transform_reduce of an index lambda, of one View and of two", "[lambdas][reduce]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const RegionLog log;
  for (const kprim::ReduceAlgorithm algorithm : algorithms<kprim::ReduceAlgorithm>()) {
    for (const std::int64_t n : lambda_sizes()) {
      INFO(Space::name() << ", " << kprim::to_string(algorithm) << ", n = " << n);
      const std::vector<std::int32_t> host = host_counts(n);
      const auto counts = make_counts(space, n);
      std::int64_t expected = 0;
      for (const auto c : host) expected += c;
      REQUIRE(sum_counts(space, counts, n, algorithm) == expected);
      if (algorithm == kprim::ReduceAlgorithm::automatic) require_path<Space>("kprim::transform_reduce");

      // An op without identity() that is not commutative: the order of the product is kept.
      if (n > 0) {
        Mat product = mat_of(0);
        for (std::int64_t i = 1; i < n; ++i) product = mat_product(product, mat_of(i));
        REQUIRE(product_of_matrices(space, n, algorithm) == product);
      }
      if (algorithm != kprim::ReduceAlgorithm::automatic) continue;

      double squares = 0;
      for (const auto c : host) squares += double(c) * double(c);
      REQUIRE(sum_squares_into_view(space, counts, n) == squares);

      std::int64_t pair_sum = 0, dot = 0;
      const std::int64_t unary = std_forms(space, counts, pair_sum, dot);
      std::int64_t expected_pair = 5, expected_dot = -1, expected_unary = 3;
      for (const auto c : host) {
        expected_pair += std::int64_t(c) - 2 * std::int64_t(c);
        expected_dot += std::int64_t(c) * c;
        expected_unary += 3 * std::int64_t(c);
      }
      REQUIRE(pair_sum == expected_pair);
      REQUIRE(dot == expected_dot);
      REQUIRE(unary == expected_unary);
    }
  }
  REQUIRE_THROWS_WITH(transform_reduce_empty_without_identity(space),
                      Catch::Matchers::StartsWith("kprim::transform_reduce: the input is empty and op has no identity()"));
  REQUIRE_THROWS_WITH(transform_reduce_negative(space),
                      Catch::Matchers::StartsWith("kprim::transform_reduce: n = -1 is negative"));
}

TEMPLATE_LIST_TEST_CASE("reduce and scans take an init value and ops without identity()", "[lambdas][reduce][scan]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using Memory = typename Space::memory_space;
  const Space space;
  std::vector<kprim::AnyAlgorithm<kprim::ScanOptions>> options_list;
  for (const kprim::ScanAlgorithm algorithm : algorithms<kprim::ScanAlgorithm>()) options_list.push_back(kprim::any_algorithm({.algorithm = algorithm}));
  options_list.push_back(kprim::any_algorithm(kprim::ScanOptions{.determinism = kprim::Determinism::bitwise}));
  for (const std::int64_t n : lambda_sizes()) {
    const std::vector<std::int32_t> host = host_counts(n);
    const auto x = make_counts(space, n);
    std::int64_t sum = 0;
    for (const auto c : host) sum += c;
    INFO(Space::name() << ", n = " << n);
    REQUIRE(reduce_with_lambda(space, x, true) == 100 + sum);
    if (n > 0) REQUIRE(reduce_with_lambda(space, x, false) == sum);
    else
      REQUIRE_THROWS_WITH(reduce_with_lambda(space, x, false),
                          Catch::Matchers::StartsWith("kprim::reduce: the input is empty and op has no identity()"));
    REQUIRE(kprim::reduce(space, x, std::int64_t(-7), kprim::Sum{}) == sum - 7);

    // Inclusive scans from an init (std::inclusive_scan's form), and exclusive ones, with a lambda
    // and a functor that have no identity(); outputs between guard elements.
    std::vector<std::int64_t> inclusive(n), exclusive(n);
    std::int64_t running = -3, running_exclusive = 4;
    for (std::int64_t i = 0; i < n; ++i) {
      running += host[i];
      inclusive[i] = running;
      exclusive[i] = running_exclusive;
      running_exclusive += host[i];
    }
    constexpr std::int64_t guard = 0x5eed;
    for (const auto& options : options_list) {
      INFO("algorithm " << kprim::to_string(options.algorithm) << ", determinism "
                        << (options.determinism == kprim::Determinism::bitwise ? "bitwise" : "fastest"));
      Int64s<Space> padded("padded", n + 2), padded2("padded2", n + 2);
      Kokkos::deep_copy(padded, guard);
      Kokkos::deep_copy(padded2, guard);
      const auto inner = Kokkos::subview(padded, Kokkos::pair<std::int64_t, std::int64_t>(1, n + 1));
      const auto inner2 = Kokkos::subview(padded2, Kokkos::pair<std::int64_t, std::int64_t>(1, n + 1));
      scans_without_identity(space, x, Int64s<Space>(inner.data(), n), Int64s<Space>(inner2.data(), n), options);
      std::vector<std::int64_t> expected = inclusive, expected2 = exclusive;
      expected.insert(expected.begin(), guard);
      expected.push_back(guard);
      expected2.insert(expected2.begin(), guard);
      expected2.push_back(guard);
      REQUIRE(first_mismatch(to_host(padded), expected) == -1);
      REQUIRE(first_mismatch(to_host(padded2), expected2) == -1);

      // A non-commutative op without identity: transform scans of matrices keep the order.
      if (n <= 100'003) {
        Kokkos::View<Mat*, Memory> out("out", n), out_exclusive("out_exclusive", n);
        const Mat init{3, 1, 4, 1};
        matrix_scans(space, n, out, out_exclusive, init, options);
        std::vector<Mat> expected_in(n), expected_ex(n);
        Mat acc{}, acc_ex = init;
        for (std::int64_t i = 0; i < n; ++i) {
          expected_ex[i] = acc_ex;
          acc_ex = mat_product(acc_ex, mat_of(i));
          acc = i == 0 ? mat_of(0) : mat_product(acc, mat_of(i));
          expected_in[i] = acc;
        }
        REQUIRE(first_mismatch(to_host(out), expected_in) == -1);
        REQUIRE(first_mismatch(to_host(out_exclusive), expected_ex) == -1);
      }
    }
    // In place, with an init and a built-in op.
    {
      Int64s<Space> y("y", n);
      const auto mirror = Kokkos::create_mirror_view(y);
      for (std::int64_t i = 0; i < n; ++i) mirror(i) = host[i];
      Kokkos::deep_copy(y, mirror);
      kprim::inclusive_scan(space, y, y, kprim::Sum{}, std::int64_t(-3));
      REQUIRE(first_mismatch(to_host(y), inclusive) == -1);
    }
  }
}

/// transform_scans' outputs for counts host[0 .. n): inclusive sums, exclusive sums from 11, total.
template <class Offsets, class Total>
void require_transform_scans(const std::vector<std::int32_t>& host, std::int64_t n, const Offsets& inclusive,
                             const Offsets& exclusive, const Total& total) {
  std::vector<std::int64_t> expected_in(n), expected_ex(n);
  std::int64_t running = 0, running_ex = 11;
  for (std::int64_t i = 0; i < n; ++i) {
    expected_ex[i] = running_ex;
    running_ex += host[i];
    running += host[i];
    expected_in[i] = running;
  }
  REQUIRE(first_mismatch(to_host(inclusive), expected_in) == -1);
  REQUIRE(first_mismatch(to_host(exclusive), expected_ex) == -1);
  REQUIRE(to_host(Kokkos::View<std::int64_t*, typename Total::memory_space>(total.data(), 1))[0] == running_ex);
}

TEMPLATE_LIST_TEST_CASE("transform scans of an index lambda, with their totals", "[lambdas][scan]", SpaceOnly) {
  using Space = typename TestType::space;
  using Memory = typename Space::memory_space;
  const Space space;
  const RegionLog log;
  for (const kprim::ScanAlgorithm algorithm : algorithms<kprim::ScanAlgorithm>()) {
    for (const std::int64_t n : lambda_sizes()) {
      INFO(Space::name() << ", " << kprim::to_string(algorithm) << ", n = " << n);
      const std::vector<std::int32_t> host = host_counts(n);
      const auto counts = make_counts(space, n);
      Int64s<Space> inclusive("inclusive", n), exclusive("exclusive", n);
      Kokkos::View<std::int64_t, Memory> total("total");
      transform_scans(space, counts, n, inclusive, exclusive, total, algorithm);
      if (algorithm == kprim::ScanAlgorithm::automatic) {
        require_path<Space>("kprim::transform_inclusive_scan");
      }
      require_transform_scans(host, n, inclusive, exclusive, total);
    }
  }
  Int64s<Space> out("out", 5);
  REQUIRE_THROWS_WITH(transform_scan_bad_arguments(space, out, 6),
                      Catch::Matchers::StartsWith("kprim::transform_inclusive_scan: output extent 5 != n 6"));
  REQUIRE_THROWS_WITH(transform_scan_bad_arguments(space, out, -2),
      Catch::Matchers::StartsWith("kprim::transform_exclusive_scan: n = -2 is negative"));
}

TEMPLATE_LIST_TEST_CASE("transform scans and View scans of outputs larger than the caches", "[lambdas][scan]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using Memory = typename Space::memory_space;
  const Space space;
  // 36 MB of int64 offsets and of int32 sums (the other tests stop at 1,000,003 elements).
  const std::int64_t n = 4'500'007, m = 9'000'011;
  if (m > max_test_size()) SKIP("KPRIM_TEST_MAX_N is below this test's sizes");
  const std::vector<std::int32_t> host = host_counts(m);
  const auto counts = make_counts(space, m);
  Int64s<Space> inclusive("inclusive", n), exclusive("exclusive", n);
  Kokkos::View<std::int64_t, Memory> total("total");
  transform_scans(space, counts, n, inclusive, exclusive, total, kprim::ScanAlgorithm::automatic);
  require_transform_scans(host, n, inclusive, exclusive, total);

  Kokkos::View<std::int32_t*, Memory> sums("sums", m);
  kprim::inclusive_scan(space, counts, sums);
  std::vector<std::int32_t> expected_sums(m);
  std::int32_t sum = 0;
  for (std::int64_t i = 0; i < m; ++i) expected_sums[i] = sum += host[i];
  REQUIRE(first_mismatch(to_host(sums), expected_sums) == -1);
}

TEMPLATE_LIST_TEST_CASE("CRS offsets: exclusive_scan_each and kprim::parallel_scan equal Kokkos::parallel_scan",
                        "[lambdas][scan][crs]", SpaceOnly) {
  using Space = typename TestType::space;
  using Memory = typename Space::memory_space;
  const Space space;
  const RegionLog log;
  for (const std::int64_t n : lambda_sizes()) {
    INFO(Space::name() << ", n = " << n);
    const auto counts = make_counts(space, n);
    // The Kokkos lambda, unchanged, through the adapter: offsets equal Kokkos', the total the sum
    // of the counts. (Kokkos 4.6.99's own total is not the reference: on CUDA it leaves the
    // variable unwritten for an empty range, and on Serial it returned 0 for counts {0, 7}.)
    const std::vector<std::int32_t> host = host_counts(n);
    std::int64_t nnz_expected = 0;
    for (const auto c : host) nnz_expected += c;
    std::vector<std::int64_t> kokkos_offsets;
    std::int64_t kokkos_nnz = 0;
    Int64s<Space> adapted("adapted", n);
    REQUIRE(crs_kokkos_then_kprim(space, counts, 0, n, adapted, kokkos_offsets, kokkos_nnz) == nnz_expected);
    UNSCOPED_INFO("Kokkos::parallel_scan's total: " << kokkos_nnz);
    require_path<Space>("kprim::parallel_scan");
    REQUIRE(first_mismatch(to_host(adapted), kokkos_offsets) == -1);

    Int64s<Space> via_view("via_view", n);
    Kokkos::View<std::int64_t, Memory> nnz_view("nnz");
    crs_adapter_view_total(space, counts, n, via_view, nnz_view);
    REQUIRE(first_mismatch(to_host(via_view), kokkos_offsets) == -1);
    REQUIRE(to_host(Kokkos::View<std::int64_t*, Memory>(nnz_view.data(), 1))[0] == nnz_expected);

    // A range that does not start at 0 (rows [n / 3, n)).
    if (n > 2) {
      Int64s<Space> part("part", n);
      std::vector<std::int64_t> part_kokkos;
      std::int64_t part_nnz = 0;
      std::int64_t part_expected = 0;
      for (std::int64_t i = n / 3; i < n; ++i) part_expected += host[i];
      REQUIRE(crs_kokkos_then_kprim(space, counts, n / 3, n, part, part_kokkos, part_nnz) == part_expected);
      REQUIRE(first_mismatch(to_host(part), part_kokkos) == -1);
    }

    for (const kprim::ScanAlgorithm algorithm : algorithms<kprim::ScanAlgorithm>()) {
      INFO(kprim::to_string(algorithm));
      Int64s<Space> offsets("offsets", n);
      REQUIRE(crs_each(space, counts, n, offsets, algorithm) == nnz_expected);
      if (algorithm == kprim::ScanAlgorithm::automatic) require_path<Space>("kprim::exclusive_scan_each");
      REQUIRE(first_mismatch(to_host(offsets), kokkos_offsets) == -1);
    }

    Int64s<Space> ends("ends", n);
    Kokkos::View<std::int64_t, Memory> total("total");
    crs_each_inclusive(space, counts, n, ends, total);
    std::vector<std::int64_t> expected_ends = kokkos_offsets;
    for (std::int64_t i = 0; i < n; ++i) expected_ends[i] += host[i];
    REQUIRE(first_mismatch(to_host(ends), expected_ends) == -1);
    REQUIRE(to_host(Kokkos::View<std::int64_t*, Memory>(total.data(), 1))[0] == nnz_expected);
  }
}

TEMPLATE_LIST_TEST_CASE("copy_if and copy_index_if select in order, in one pass, never past the output",
                        "[lambdas][copy_if]", SpaceOnly) {
  using Space = typename TestType::space;
  using Memory = typename Space::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  const Space space;
  const RegionLog log;
  for (const std::int64_t n : lambda_sizes()) {
    std::vector<float> host(n);
    std::mt19937_64 rng(1234 + n);
    for (auto& v : host) v = float(std::int64_t(rng() % 2001) - 1000);  // about half positive
    std::vector<float> expected;
    for (const float v : host) if (v > 0.0f) expected.push_back(v);
    const auto x = to_space(space, host, "x");
    for (const kprim::ScanAlgorithm algorithm : algorithms<kprim::ScanAlgorithm>()) {
      INFO(Space::name() << ", " << kprim::to_string(algorithm) << ", n = " << n);
      // Room for everything, and guards after it.
      Floats padded("padded", n + 1);
      Kokkos::deep_copy(padded, -0.5f);
      const Floats out(padded.data(), n);
      const std::int64_t count = select_positive(space, x, out, algorithm);
      if (algorithm == kprim::ScanAlgorithm::automatic && n > 0) require_path<Space>("kprim::copy_if");
      REQUIRE(count == std::int64_t(expected.size()));
      const std::vector<float> got = to_host(padded);
      REQUIRE(first_mismatch(std::vector<float>(got.begin(), got.begin() + count), expected) == -1);
      REQUIRE(std::all_of(got.begin() + count, got.end(), [](float v) { return v == -0.5f; }));
    }
    // Too small an output: the full count comes back, nothing past its end is written.
    const std::int64_t room = std::int64_t(expected.size()) / 2;
    Floats padded("padded", room + 2);
    Kokkos::deep_copy(padded, -0.5f);
    Kokkos::View<std::int64_t, Memory> count_view("count");
    select_positive_async(space, x, Floats(padded.data() + 1, room), count_view);
    REQUIRE(to_host(Kokkos::View<std::int64_t*, Memory>(count_view.data(), 1))[0] == std::int64_t(expected.size()));
    const std::vector<float> got = to_host(padded);
    REQUIRE(got.front() == -0.5f);
    REQUIRE(got.back() == -0.5f);
    REQUIRE(first_mismatch(std::vector<float>(got.begin() + 1, got.end() - 1),
                           std::vector<float>(expected.begin(), expected.begin() + room)) == -1);

    Int64s<Space> indices("indices", n);
    const std::int64_t selected = indices_of_multiples(space, n, indices);
    std::vector<std::int64_t> expected_indices;
    for (std::int64_t i = 1; i < n; i += 3) expected_indices.push_back(i);
    REQUIRE(selected == std::int64_t(expected_indices.size()));
    const std::vector<std::int64_t> got_indices = to_host(indices);
    REQUIRE(first_mismatch(std::vector<std::int64_t>(got_indices.begin(), got_indices.begin() + selected),
                           expected_indices) == -1);

    // 8-byte elements through a stride, and 16-byte elements (the kernels' other tunings).
    std::vector<double> pairs(2 * n);
    std::vector<double> expected_doubles;
    std::vector<Kokkos::complex<double>> complexes(n);
    std::vector<Kokkos::complex<double>> expected_complexes;
    for (std::int64_t i = 0; i < n; ++i) {
      pairs[2 * i] = double(host[i]) - 0.25;
      pairs[2 * i + 1] = -7.0;  // never read
      if (pairs[2 * i] < 0.0) expected_doubles.push_back(pairs[2 * i]);
      complexes[i] = Kokkos::complex<double>(double(i), double(host[i]));
      if (host[i] > 0.0f) expected_complexes.push_back(complexes[i]);
    }
    Kokkos::View<double*, Memory> doubles("doubles", n);
    REQUIRE(select_strided_doubles(space, to_space(space, pairs, "pairs"), doubles) ==
            std::int64_t(expected_doubles.size()));
    const std::vector<double> got_doubles = to_host(doubles);
    REQUIRE(first_mismatch(std::vector<double>(got_doubles.begin(), got_doubles.begin() + expected_doubles.size()),
                           expected_doubles) == -1);
    Kokkos::View<Kokkos::complex<double>*, Memory> selected_complexes("selected complexes", n);
    REQUIRE(select_complex(space, to_space(space, complexes, "complexes"), selected_complexes) ==
            std::int64_t(expected_complexes.size()));
    const auto got_complexes = to_host(selected_complexes);
    REQUIRE(std::equal(expected_complexes.begin(), expected_complexes.end(), got_complexes.begin()));
  }
  const auto x = to_space(space, std::vector<float>(100, 1.0f), "x");
  REQUIRE_THROWS_WITH(select_positive(space, x, Floats(x.data() + 10, 50), kprim::ScanAlgorithm::automatic),
                      Catch::Matchers::StartsWith("kprim::copy_if: input and output Views overlap"));
}
