// kprim::inclusive_scan / exclusive_scan: every space x value type x built-in op x algorithm
// (every rung of the scan ladder), the tunings and sizes of kprim_test::runs(), out of place and
// in place, with and without totals, strided Views.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <numeric>

using namespace kprim_test;

namespace {

enum class Kind { inclusive, exclusive };

template <class C>
struct ScanCase {
  using Space = typename C::space;
  using T = typename C::value;
  using Op = typename C::op;
  using device_view = Kokkos::View<T*, typename Space::memory_space>;
  Space space{};
  Op op{};

  std::vector<T> expected(const std::vector<T>& in, Kind kind, T init) const {
    std::vector<T> out(in.size());
    if (kind == Kind::inclusive) std::inclusive_scan(in.begin(), in.end(), out.begin(), op);
    else std::exclusive_scan(in.begin(), in.end(), out.begin(), init, op);
    return out;
  }

  T expected_total(const std::vector<T>& in, Kind kind, T init) const {
    return std::reduce(in.begin(), in.end(), kind == Kind::inclusive ? kprim::identity_of<T>(op) : init, op);
  }

  void scan(Kind kind, const auto& in, const auto& out, T init, const auto& options) const {
    if (kind == Kind::inclusive) kprim::inclusive_scan(space, in, out, op, options);
    else kprim::exclusive_scan(space, in, out, init, op, options);
  }

  // Runs check(kind, options, n, host input, init) for both kinds, every run (algorithm,
  // tuning) and size.
  template <class Check>
  void for_each_input(Check&& check) const {
    for (const Kind kind : {Kind::inclusive, Kind::exclusive}) {
      for (const auto& run : runs<kprim::ScanAlgorithm>(space)) {
        const auto options = kprim::any_algorithm({.algorithm = run.algorithm, .tuning = run.tuning});
        for (const std::int64_t n : run.sizes) {
          INFO(case_name<C>() << (kind == Kind::inclusive ? ", inclusive" : ", exclusive") << ", " << describe(run)
                              << ", n = " << n);
          check(kind, options, n, exact_input<T, Op>(n, 3000 + n), exact_init<T, Op>());
        }
      }
    }
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("scan out of place", "[scan]", SpaceValueOp) {
  const ScanCase<TestType> test;
  test.for_each_input([&](Kind kind, const auto& options, std::int64_t n, const auto& host, auto init) {
    const auto in = to_space(test.space, host, "in");
    typename ScanCase<TestType>::device_view out("out", n);
    test.scan(kind, in, out, init, options);
    REQUIRE(first_mismatch(to_host(out), test.expected(host, kind, init)) == -1);
    REQUIRE(first_mismatch(to_host(in), host) == -1);  // the input is left alone
  });
}

TEMPLATE_LIST_TEST_CASE("scan in place", "[scan]", SpaceValueOp) {
  const ScanCase<TestType> test;
  test.for_each_input([&](Kind kind, const auto& options, std::int64_t, const auto& host, auto init) {
    const auto data = to_space(test.space, host, "data");
    test.scan(kind, data, data, init, options);
    REQUIRE(first_mismatch(to_host(data), test.expected(host, kind, init)) == -1);
  });
}

TEMPLATE_LIST_TEST_CASE("scan writes its total to rank-0 Views", "[scan]", SpaceValueOp) {
  using T = typename TestType::value;
  using Space = typename TestType::space;
  const ScanCase<TestType> test;
  test.for_each_input([&](Kind kind, const auto& options, std::int64_t n, const auto& host, T init) {
    const auto in = to_space(test.space, host, "in");
    typename ScanCase<TestType>::device_view out("out", n);
    Kokkos::View<T, typename Space::memory_space> total_in_space("total_in_space");
    Kokkos::View<T, Kokkos::HostSpace> total_on_host("total_on_host");
    if (kind == Kind::inclusive) {
      kprim::inclusive_scan(test.space, in, out, total_in_space, test.op, options);
      kprim::inclusive_scan(test.space, in, in, total_on_host, test.op, options);  // in place too
    } else {
      kprim::exclusive_scan(test.space, in, out, init, total_in_space, test.op, options);
      kprim::exclusive_scan(test.space, in, in, init, total_on_host, test.op, options);
    }
    test.space.fence();
    T from_space{};
    Kokkos::deep_copy(from_space, total_in_space);
    const T expected = test.expected_total(host, kind, init);
    REQUIRE(from_space == expected);
    REQUIRE(total_on_host() == expected);
    const auto expected_out = test.expected(host, kind, init);
    REQUIRE(first_mismatch(to_host(out), expected_out) == -1);
    REQUIRE(first_mismatch(to_host(in), expected_out) == -1);
  });
}

TEMPLATE_LIST_TEST_CASE("scan of strided and const Views, other layouts and types", "[scan]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  using memory_space = typename Space::memory_space;
  const ScanCase<TestType> test;
  for (const Kind kind : {Kind::inclusive, Kind::exclusive}) {
    for (const std::int64_t n : {0, 1, 33, 4097, 100'003}) {
      INFO(case_name<TestType>() << ", n = " << n << (kind == Kind::inclusive ? ", inclusive" : ", exclusive"));
      const std::vector<T> host = exact_input<T, Op>(2 * n + 1, 99 + n);
      const auto storage = to_space(test.space, host, "storage");
      // Input: the odd elements of `storage`, read through a const strided View.
      Kokkos::View<const T*, Kokkos::LayoutStride, memory_space> odd(storage.data() + 1, Kokkos::LayoutStride(n, 2));
      // Output: every third element of a larger array, LayoutStride.
      Kokkos::View<T*, memory_space> out_storage("out_storage", 3 * n + 1);
      Kokkos::View<T*, Kokkos::LayoutStride, memory_space> every_third(out_storage.data(), Kokkos::LayoutStride(n, 3));
      const T init = exact_init<T, Op>();
      std::vector<T> picked;
      for (std::int64_t i = 0; i < n; ++i) picked.push_back(host[1 + 2 * i]);
      const auto expected = test.expected(picked, kind, init);
      for (const auto algorithm : algorithms<kprim::ScanAlgorithm>()) {
        INFO(kprim::to_string(algorithm));
        Kokkos::deep_copy(out_storage, T(0));
        test.scan(kind, odd, every_third, init, kprim::any_algorithm({.algorithm = algorithm}));
        REQUIRE(first_mismatch(to_host(every_third), expected) == -1);
        // Elements between the strided outputs are untouched.
        const auto all_out = to_host(out_storage);
        std::int64_t touched = 0;
        for (std::int64_t i = 0; i < 3 * n + 1; ++i) touched += (i % 3 != 0 || i / 3 >= n) && all_out[i] != T(0);
        REQUIRE(touched == 0);

        // LayoutLeft output.
        Kokkos::View<T*, Kokkos::LayoutLeft, memory_space> left("left", n);
        test.scan(kind, odd, left, init, kprim::any_algorithm({.algorithm = algorithm}));
        REQUIRE(first_mismatch(to_host(left), expected) == -1);
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("scan without a space argument uses the View's default instance", "[scan]", SpaceValue) {
  using T = typename TestType::value;
  const std::vector<T> host = exact_input<T, kprim::Sum>(10'000, 8);
  const auto in = to_space(typename TestType::space{}, host, "in");
  decltype(in) out("out", host.size());
  std::vector<T> expected(host.size());

  kprim::inclusive_scan(in, out);
  Kokkos::fence();
  std::inclusive_scan(host.begin(), host.end(), expected.begin());
  REQUIRE(first_mismatch(to_host(out), expected) == -1);

  kprim::exclusive_scan(in, out, T(5), kprim::Max{});
  Kokkos::fence();
  std::exclusive_scan(host.begin(), host.end(), expected.begin(), T(5), kprim::Max{});
  REQUIRE(first_mismatch(to_host(out), expected) == -1);
}

TEMPLATE_LIST_TEST_CASE("scan into a wider output type accumulates in it", "[scan]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const std::int64_t n = 50'000;
  const std::vector<std::int32_t> host(n, std::numeric_limits<std::int32_t>::max());
  const auto in = to_space(space, host, "in");
  Kokkos::View<std::int64_t*, typename Space::memory_space> out("out", n);
  kprim::inclusive_scan(space, in, out);
  std::vector<std::int64_t> expected(n);
  for (std::int64_t i = 0; i < n; ++i) expected[i] = (i + 1) * std::int64_t(std::numeric_limits<std::int32_t>::max());
  REQUIRE(first_mismatch(to_host(out), expected) == -1);
}

namespace {

/// Inclusive and exclusive Sum scans of `host` (From) into Views of To against std's, each element
/// converted to To before it is added.
template <class To, class Space, class From>
void check_converting_scans(const Space& space, const std::vector<From>& host, To init) {
  const auto in = to_space(space, host, "in");
  Kokkos::View<To*, typename Space::memory_space> out("out", host.size());
  std::vector<To> expected(host.size());
  const auto add = [](To a, To b) { return To(a + b); };
  std::vector<To> widened(host.begin(), host.end());
  kprim::inclusive_scan(space, in, out);
  std::inclusive_scan(widened.begin(), widened.end(), expected.begin(), add);
  CHECK(first_mismatch(to_host(out), expected) == -1);
  kprim::exclusive_scan(space, in, out, init);
  std::exclusive_scan(widened.begin(), widened.end(), expected.begin(), init, add);
  CHECK(first_mismatch(to_host(out), expected) == -1);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("scans into a wider output type convert each element", "[scan]", SpaceOnly) {
  const typename TestType::space space;
  const std::int64_t n = std::min<std::int64_t>(100'003, max_test_size());
  std::vector<std::int32_t> signed_values(n);
  std::vector<std::uint32_t> unsigned_values(n);
  std::vector<float> floats(n);
  for (std::int64_t i = 0; i < n; ++i) {
    signed_values[i] = std::int32_t(i % 7 == 0 ? -2'000'000'000 + i : 1'000'000'000 - 3 * i);  // sign-extended
    unsigned_values[i] = std::uint32_t(4'000'000'000u - std::uint32_t(i));  // above 2^31: zero-extended
    floats[i] = float(i % 13) * 0.25f - 1.0f;  // every prefix exact in double
  }
  check_converting_scans<std::int64_t>(space, signed_values, std::int64_t(-5));
  check_converting_scans<std::uint64_t>(space, signed_values, std::uint64_t(5));
  check_converting_scans<std::int64_t>(space, unsigned_values, std::int64_t(-5));
  check_converting_scans<std::uint64_t>(space, unsigned_values, std::uint64_t(5));
  check_converting_scans<std::uint32_t>(space, signed_values, std::uint32_t(5));
  check_converting_scans<double>(space, floats, 0.5);
}

TEMPLATE_LIST_TEST_CASE("scan of random floating-point data stays within the rounding bound", "[scan]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const std::int64_t n = std::min<std::int64_t>(1'000'003, max_test_size());
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<T> host(n);
  for (auto& v : host) v = T(uniform(rng));
  // Every tuning with `automatic`, every algorithm with the default tuning.
  std::vector<kprim::AnyAlgorithm<kprim::ScanOptions>> options;
  for (const auto& tuning : tunings(space))
    options.push_back(kprim::any_algorithm({.algorithm = automatic_for<kprim::ScanAlgorithm>(space, tuning), .tuning = tuning}));
  for (const auto algorithm : kprim::all_scan_algorithms) options.push_back(kprim::any_algorithm({.algorithm = algorithm}));
  const auto in = to_space(space, host, "in");
  for (const auto& option : options) {
    INFO(case_name<TestType>() << ", " << kprim::to_string(option.algorithm) << ", " << describe(option.tuning));
    decltype(in) out("out", n);
    kprim::inclusive_scan(space, in, out, kprim::Sum{}, option);
    const auto got = to_host(out);
    // Non-negative data: prefix i, summed in any order, errs by at most i u prefix (Higham).
    const long double u = std::numeric_limits<T>::epsilon() / 2;
    long double exact = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      exact += host[i];
      if (std::abs(got[i] - exact) > (i * u * 1.01L) * exact + u * exact) {
        FAIL("prefix " << i << " = " << got[i] << ", exact " << double(exact));
      }
    }
  }
}

namespace {

/// The map x -> a x + b (mod p); op(f, g) applies f, then g. Associative, not commutative, and
/// 16 bytes: the widest type a host scan writes with streaming stores.
struct Affine {
  std::int64_t a = 1, b = 0;
  KOKKOS_FUNCTION friend bool operator==(const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; }
  friend const Affine& operator+(const Affine& f) { return f; }  // first_mismatch prints +value
  friend std::ostream& operator<<(std::ostream& os, const Affine& f) { return os << f.a << " x + " << f.b; }
};

struct ThenAffine {
  static constexpr std::int64_t p = 1'000'003;
  KOKKOS_FUNCTION Affine identity() const { return {}; }
  KOKKOS_FUNCTION Affine operator()(const Affine& f, const Affine& g) const {
    return {g.a * f.a % p, (g.a * f.b + g.b) % p};
  }
};

/// Both scans of `host` into a window of a larger View (one element in, so not on a 16-byte
/// boundary, with a guard element either side that must not change), out of place and in place,
/// against std::inclusive_scan / std::exclusive_scan.
template <class Space, class T, class Op>
void check_scans_into_window(const Space& space, const std::vector<T>& host, const T& init, const T& guard,
                             const Op& op) {
  using view = Kokkos::View<T*, typename Space::memory_space>;
  const std::int64_t n = std::int64_t(host.size());
  const auto in = to_space(space, host, "in");
  const std::vector<T> guarded_host(n + 2, guard);
  for (const bool exclusive : {false, true}) {
    std::vector<T> expected(n);
    if (exclusive) std::exclusive_scan(host.begin(), host.end(), expected.begin(), init, op);
    else std::inclusive_scan(host.begin(), host.end(), expected.begin(), op);
    for (const bool in_place : {false, true}) {
      INFO((exclusive ? "exclusive" : "inclusive") << (in_place ? ", in place" : ", out of place") << ", n = " << n);
      const view storage = to_space(space, guarded_host, "storage");
      const view window = Kokkos::subview(storage, Kokkos::make_pair(std::int64_t(1), n + 1));
      if (in_place) Kokkos::deep_copy(space, window, in);
      const view source = in_place ? window : in;
      if (exclusive) kprim::exclusive_scan(space, source, window, init, op);
      else kprim::inclusive_scan(space, source, window, op);
      const std::vector<T> got = to_host(storage);
      REQUIRE(got.front() == guard);
      REQUIRE(got.back() == guard);
      REQUIRE(first_mismatch(std::vector<T>(got.begin() + 1, got.end() - 1), expected) == -1);
    }
  }
}

/// Past the output size from which host spaces write with streaming stores (32 MiB: above the
/// threshold, host_streaming_bytes, and the VM's last-level cache), and odd.
template <class T>
std::int64_t larger_than_caches() {
  static_assert(kprim::impl::host_streaming_bytes <= (std::size_t(32) << 20));
  return (std::int64_t(32) << 20) / std::int64_t(sizeof(T)) + 4099;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("scans of outputs larger than the caches, into unaligned windows and in place", "[scan]",
                        SpaceValue) {
  using T = typename TestType::value;
  const std::int64_t n = larger_than_caches<T>();
  if (n + 2 > max_test_size()) SKIP("KPRIM_TEST_MAX_N is below this test's size");
  check_scans_into_window(typename TestType::space{}, exact_input<T, kprim::Sum>(n, 12), exact_init<T, kprim::Sum>(),
                          T(-99), kprim::Sum{});
}

TEMPLATE_LIST_TEST_CASE("scans of outputs larger than the caches keep the order of a non-commutative op", "[scan]",
                        SpaceOnly) {
  const std::int64_t n = larger_than_caches<Affine>();
  if (n + 2 > max_test_size()) SKIP("KPRIM_TEST_MAX_N is below this test's size");
  std::mt19937_64 rng(31);
  std::vector<Affine> host(n);
  for (auto& f : host) f = {std::int64_t(rng() % 1000), std::int64_t(rng() % 1000)};
  check_scans_into_window(typename TestType::space{}, host, Affine{3, 5}, Affine{-1, -1}, ThenAffine{});
}
