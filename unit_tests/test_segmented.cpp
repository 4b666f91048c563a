// Segmented reduce and scans (kprim/segmented.hpp): CSR offsets with every mix of segment
// lengths (empty, one element, longer than a tile, partial coverage of the input) and fixed-size
// segments, every built-in op and a non-commutative one, guard elements around every output.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kprim/segmented.hpp>

using namespace kprim_test;
using Catch::Matchers::StartsWith;

namespace {

/// A named set of CSR offsets over n elements.
struct Layout {
  std::string name;
  std::int64_t n;
  std::vector<std::int64_t> offsets;
};

/// Offsets from segment lengths, starting at `first`.
inline std::vector<std::int64_t> offsets_of(const std::vector<std::int64_t>& lengths, std::int64_t first = 0) {
  std::vector<std::int64_t> offsets{first};
  for (const std::int64_t length : lengths) offsets.push_back(offsets.back() + length);
  return offsets;
}

/// The mixes a segmented call must take in one launch.
inline std::vector<Layout> layouts() {
  std::vector<Layout> list;
  std::mt19937_64 rng(20261126);
  const std::int64_t big = std::min<std::int64_t>(max_test_size(), 300'000);
  list.push_back({"no segments", 10, {0}});
  list.push_back({"empty input, empty segments", 0, {0, 0, 0, 0}});
  list.push_back({"one segment", big, {0, big}});
  list.push_back({"one element", 1, {0, 1}});
  std::vector<std::int64_t> ones(1000, 1);
  list.push_back({"segments of one", 1000, offsets_of(ones)});
  std::vector<std::int64_t> tiny;
  std::int64_t total = 0;
  while (total < big) {
    tiny.push_back(std::int64_t(rng() % 33));  // 0..32, empty ones among them
    total += tiny.back();
  }
  list.push_back({"tiny and empty (0-32)", total, offsets_of(tiny)});
  std::vector<std::int64_t> mixed;  // power law: mostly short, a few longer than many tiles
  total = 0;
  while (total < big) {
    const double u = double(rng() % 1'000'000 + 1) / 1e6;
    mixed.push_back(std::int64_t(std::pow(u, -1.5)) - 1);
    mixed.back() = std::min<std::int64_t>(mixed.back(), big / 3);
    total += mixed.back();
  }
  list.push_back({"power law", total, offsets_of(mixed)});
  list.push_back({"straddling tiles", 3 * 70'001 + 5, offsets_of({5, 70'001, 0, 70'001, 70'001})});
  list.push_back({"empty first and last", 100, offsets_of({0, 0, 50, 0, 50, 0, 0})});
  // Only part of the input in segments: elements before offsets(0) and from offsets(S) on are left.
  list.push_back({"partial coverage", 5000, offsets_of({10, 0, 2000, 7, 1}, 333)});
  return list;
}

/// The sequential segmented results; elements outside every segment keep `guard`.
template <class T, class Op>
void expected_segments(const std::vector<T>& in, const std::vector<std::int64_t>& offsets, const Op& op, const T& init,
                       const T& guard, std::vector<T>& reduce, std::vector<T>& inclusive, std::vector<T>& exclusive) {
  const std::size_t segments = offsets.size() - 1;
  reduce.assign(segments + 1, guard);
  inclusive.assign(in.size() + 1, guard);
  exclusive.assign(in.size() + 1, guard);
  for (std::size_t s = 0; s < segments; ++s) {
    T running = kprim::identity_of<T>(op);
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      exclusive[i] = op(init, running);
      running = op(running, in[i]);
      inclusive[i] = running;
    }
    reduce[s] = running;
  }
}

/// A View of `extent` elements then one guard element, all set to `guard`; the first `extent`
/// go to the call.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> guarded(const Space& space, std::size_t extent, const T& guard) {
  return to_space(space, std::vector<T>(extent + 1, guard), "guarded");
}

template <class V>
auto first_n(const V& view, std::size_t n) {
  return Kokkos::subview(view, Kokkos::make_pair(std::size_t(0), n));
}

/// Runs the three offsets calls and checks them (guards included).
template <class Space, class T, class Op>
void check_offsets_calls(const Space& space, const Layout& layout, const std::vector<T>& host, const Op& op,
                         const T& init) {
  const T guard = T(99);
  const std::size_t segments = layout.offsets.size() - 1;
  const auto in = to_space(space, host, "in");
  const auto offsets = to_space(space, layout.offsets, "offsets");
  const auto reduce = guarded(space, segments, guard);
  const auto inclusive = guarded(space, host.size(), guard);
  const auto exclusive = guarded(space, host.size(), guard);
  kprim::segmented_reduce(space, in, offsets, first_n(reduce, segments), op);
  kprim::segmented_inclusive_scan(space, in, offsets, first_n(inclusive, host.size()), op);
  kprim::segmented_exclusive_scan(space, in, offsets, first_n(exclusive, host.size()), init, op);
  std::vector<T> want_reduce, want_inclusive, want_exclusive;
  expected_segments(host, layout.offsets, op, init, guard, want_reduce, want_inclusive, want_exclusive);
  CHECK(first_mismatch(to_host(reduce), want_reduce) == -1);
  CHECK(first_mismatch(to_host(inclusive), want_inclusive) == -1);
  CHECK(first_mismatch(to_host(exclusive), want_exclusive) == -1);
}

/// Runs the three fixed-size calls and checks them.
template <class Space, class T, class Op>
void check_fixed_calls(const Space& space, std::int64_t size, const std::vector<T>& host, const Op& op,
                       const T& init) {
  const T guard = T(99);
  const std::int64_t n = std::int64_t(host.size());
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < n) offsets.push_back(std::min(n, offsets.back() + size));
  const std::size_t segments = offsets.size() - 1;
  const auto in = to_space(space, host, "in");
  const auto reduce = guarded(space, segments, guard);
  const auto inclusive = guarded(space, host.size(), guard);
  const auto exclusive = guarded(space, host.size(), guard);
  kprim::segmented_reduce(space, in, size, first_n(reduce, segments), op);
  kprim::segmented_inclusive_scan(space, in, size, first_n(inclusive, host.size()), op);
  kprim::segmented_exclusive_scan(space, in, size, first_n(exclusive, host.size()), init, op);
  std::vector<T> want_reduce, want_inclusive, want_exclusive;
  expected_segments(host, offsets, op, init, guard, want_reduce, want_inclusive, want_exclusive);
  CHECK(first_mismatch(to_host(reduce), want_reduce) == -1);
  CHECK(first_mismatch(to_host(inclusive), want_inclusive) == -1);
  CHECK(first_mismatch(to_host(exclusive), want_exclusive) == -1);
}

inline std::vector<std::int64_t> fixed_sizes(std::int64_t n) { return {1, 2, 3, 32, 1000, 4097, n, n + 5}; }

}  // namespace

TEMPLATE_LIST_TEST_CASE("segmented reduce and scans over CSR offsets", "[segmented]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  for (const Layout& layout : layouts()) {
    INFO(case_name<TestType>() << ", " << layout.name << ": " << layout.n << " elements, "
                               << layout.offsets.size() - 1 << " segments");
    check_offsets_calls(space, layout, exact_input<T, Op>(layout.n, 7 + layout.n), Op{}, exact_init<T, Op>());
  }
}

TEMPLATE_LIST_TEST_CASE("segmented reduce and scans over fixed-size segments", "[segmented]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  for (const std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(999), std::int64_t(100'003)}) {
    for (const std::int64_t size : fixed_sizes(n)) {
      if (size < 1) continue;
      INFO(case_name<TestType>() << ", " << n << " elements in segments of " << size);
      check_fixed_calls(space, size, exact_input<T, Op>(n, 11 + n), Op{}, exact_init<T, Op>());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("segmented calls keep the order of a non-commutative op", "[segmented]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const Mat2 init{2, 1, 1, 1};
  for (const Layout& layout : layouts()) {
    INFO(Space::name() << ", " << layout.name);
    check_offsets_calls(space, layout, random_matrices(layout.n, 3 + layout.n), MatMulMod{}, init);
  }
  for (const std::int64_t size : fixed_sizes(5000)) {
    INFO(Space::name() << ", segments of " << size);
    check_fixed_calls(space, size, random_matrices(5000, 5), MatMulMod{}, init);
  }
}

TEMPLATE_LIST_TEST_CASE("segmented calls with a wider accumulator, strided input and in place", "[segmented]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  const std::int64_t n = 50'000;
  std::vector<std::int32_t> host(2 * n);
  for (std::int64_t i = 0; i < 2 * n; ++i) host[i] = std::int32_t(2'000'000'000 - i);  // sums overflow int32
  const auto all = to_space(space, host, "all");
  const auto strided = Kokkos::subview(Kokkos::View<std::int32_t**, Kokkos::LayoutRight, memory_space>(
                                           all.data(), n, 2),
                                       Kokkos::ALL, 0);  // every other element: LayoutStride
  const std::vector<std::int64_t> offsets_host = offsets_of({1, 0, 777, 40'000, 9'222});
  const auto offsets = to_space(space, offsets_host, "offsets");
  Kokkos::View<std::int64_t*, memory_space> sums("sums", offsets_host.size() - 1), scan("scan", n);
  kprim::segmented_reduce(space, strided, offsets, sums);
  kprim::segmented_inclusive_scan(space, strided, offsets, scan);
  std::vector<std::int64_t> wide(n);
  for (std::int64_t i = 0; i < n; ++i) wide[i] = host[2 * i];
  std::vector<std::int64_t> want_sums, want_scan, unused;
  expected_segments(wide, offsets_host, kprim::Sum{}, std::int64_t(0), std::int64_t(99), want_sums, want_scan, unused);
  want_sums.pop_back();
  want_scan.pop_back();
  CHECK(first_mismatch(to_host(sums), want_sums) == -1);
  CHECK(first_mismatch(to_host(scan), want_scan) == -1);

  // In place, twice over the same data: the scan of each segment's scan.
  const auto data = to_space(space, wide, "data");
  kprim::segmented_inclusive_scan(space, data, offsets, data);
  kprim::segmented_exclusive_scan(space, data, std::int64_t(1000), data, std::int64_t(5));
  std::vector<std::int64_t> twice(n);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t previous = (i % 1000 == 0) ? 5 : twice[i - 1] + want_scan[i - 1];
    twice[i] = previous;
  }
  CHECK(first_mismatch(to_host(data), twice) == -1);
}

TEMPLATE_LIST_TEST_CASE("segmented calls reject bad arguments and write nothing", "[segmented][errors]", SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  const auto in = to_space(space, std::vector<double>(10, 1.0), "in");
  const auto offsets = to_space(space, std::vector<int>{0, 4, 10}, "offsets");
  const auto out = guarded(space, 10, 99.0);
  const Kokkos::View<int*, memory_space> no_offsets("no_offsets", 0);
  REQUIRE_THROWS_WITH(kprim::segmented_reduce(space, in, offsets, first_n(out, 3)),
                      StartsWith("kprim::segmented_reduce: output extent 3 != number of segments 2"));
  REQUIRE_THROWS_WITH(kprim::segmented_reduce(space, in, no_offsets, first_n(out, 0)),
                      StartsWith("kprim::segmented_reduce: offsets View is empty"));
  REQUIRE_THROWS_WITH(kprim::segmented_reduce(space, in, 0, first_n(out, 3)),
                      StartsWith("kprim::segmented_reduce: segment size 0 < 1"));
  REQUIRE_THROWS_WITH(kprim::segmented_reduce(space, in, 4, first_n(out, 2)),
                      StartsWith("kprim::segmented_reduce: output extent 2 != number of segments 3"));
  REQUIRE_THROWS_WITH(kprim::segmented_inclusive_scan(space, in, offsets, first_n(out, 9)),
                      StartsWith("kprim::segmented_inclusive_scan: output extent 9 != input extent 10"));
  REQUIRE_THROWS_WITH(kprim::segmented_exclusive_scan(space, in, 3, first_n(out, 9), 0.0),
                      StartsWith("kprim::segmented_exclusive_scan: output extent 9 != input extent 10"));
  REQUIRE_THROWS_AS(kprim::segmented_inclusive_scan(space, in, offsets, Kokkos::View<double*, memory_space>()),
                    kprim::invalid_argument);
  const auto shifted = Kokkos::subview(in, Kokkos::make_pair(1, 10));
  const auto overlapping = Kokkos::subview(in, Kokkos::make_pair(0, 9));
  REQUIRE_THROWS_WITH(kprim::segmented_inclusive_scan(space, shifted, 3, overlapping),
                      StartsWith("kprim::segmented_inclusive_scan: input and output Views overlap"));
  CHECK(first_mismatch(to_host(out), std::vector<double>(11, 99.0)) == -1);
  CHECK(first_mismatch(to_host(in), std::vector<double>(10, 1.0)) == -1);
}
