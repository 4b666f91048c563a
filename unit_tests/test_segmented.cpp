// Segmented reduce and scans (kprim/segmented.hpp): CSR offsets with every mix of segment
// lengths (empty, one element, longer than a tile, partial coverage of the input) and fixed-size
// segments, a non-commutative op, a wider accumulator over a strided View, in place, errors. The
// built-in ops over every type: test_segmented_<op>.cpp.

#include "segmented_support.hpp"

#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstring>

using namespace kprim_test;
using Catch::Matchers::StartsWith;


/// The matrix product without identity(): what a user's functor often is.
struct MatMulModNoIdentity {
  KOKKOS_FUNCTION Mat2 operator()(const Mat2& x, const Mat2& y) const { return multiply_mod(x, y, MatMulMod::p); }
};

/// x -> a x + b modulo 2^(8 sizeof(Word)): 4- and 8-byte values of a non-commutative op, which a
/// GPU's chunk path reads in 16-byte vectors (Mat2, 32 bytes, is read one by one).
template <class Word>
struct Affine {
  Word a = 1, b = 0;
  Affine() = default;
  KOKKOS_FUNCTION Affine(Word a_, Word b_) : a(a_), b(b_) {}
  explicit Affine(int guard) : a(Word(guard)), b(Word(guard)) {}
  KOKKOS_FUNCTION friend bool operator==(const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; }
  friend const Affine& operator+(const Affine& m) { return m; }  // first_mismatch prints +value
  friend std::ostream& operator<<(std::ostream& os, const Affine& m) {
    return os << "(" << std::uint64_t(m.a) << " x + " << std::uint64_t(m.b) << ")";
  }
};

/// x, then y: associative, not commutative, no identity().
struct AffineThen {
  template <class Word>
  KOKKOS_FUNCTION Affine<Word> operator()(const Affine<Word>& x, const Affine<Word>& y) const {
    using Wide = std::conditional_t<sizeof(Word) < 4, std::uint32_t, Word>;  // no int promotion
    return {Word(Wide(y.a) * Wide(x.a)), Word(Wide(y.a) * Wide(x.b) + Wide(y.b))};
  }
};

/// n maps with odd slopes (so that no product loses its low bits), from `seed`.
template <class Word>
std::vector<Affine<Word>> random_maps(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Affine<Word>> maps(n);
  for (auto& m : maps) m = {Word(rng() | 1u), Word(rng())};
  return maps;
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

// The device path of long segments (each segment cut into chunks of 2048 elements, a map from
// chunk to segment, the partials of multi-chunk segments folded after) runs only on GPUs through
// the public call: called directly here, so that every space, CI's CPU included, checks it over
// every layout: commutative ops (lanes fold strided shares), a matrix product (folded in order)
// and the same without identity(), from init, and 4- and 8-byte affine maps without identity()
// (in order, in 16-byte vectors on a GPU: chunks that start and end inside a vector). Segments
// shorter than a chunk and chunks go to two kernels, a segment's last chunk taking its rest: also
// segments of whole chunks, one element more or less, among shorter and empty ones.
TEMPLATE_LIST_TEST_CASE("segmented reduce's chunk path over every layout", "[segmented]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const auto check = [&](const Layout& layout, const auto& host, const auto& totals) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    const T guard = T(99);
    const std::size_t segments = layout.offsets.size() - 1;
    const auto in = to_space(space, host, "in");
    const auto offsets = to_space(space, layout.offsets, "offsets");
    const auto reduce = guarded(space, segments, guard);
    if (layout.n > 0 && segments > 0)
      kprim::impl::segments::chunked_reduce("test", space, in, offsets, first_n(reduce, segments), totals);
    else  // the public call's early returns: nothing to fold, or every segment empty
      kprim::segmented_reduce(space, in, offsets, first_n(reduce, segments), totals.empty, totals.op);
    std::vector<T> want, want_from_init, unused_inclusive, unused_exclusive;
    expected_segments(host, layout.offsets, totals.op, totals.empty, guard, want, unused_inclusive, unused_exclusive,
                      &want_from_init);
    CHECK(first_mismatch(to_host(reduce), totals.seeded ? want_from_init : want) == -1);
  };
  using kprim::impl::segments::totals_of;
  std::vector<Layout> chunk_layouts = layouts();
  const std::vector<std::int64_t> whole_chunks{2048, 0, 4096, 2047, 2049, 6144, 1, 0, 4095, 2048};
  std::int64_t whole_total = 0;
  for (const std::int64_t length : whole_chunks) whole_total += length;
  chunk_layouts.push_back({"whole chunks and their neighbours", whole_total, offsets_of(whole_chunks)});
  for (const Layout& layout : chunk_layouts) {
    INFO(Space::name() << ", " << layout.name << ": " << layout.n << " elements, " << layout.offsets.size() - 1
                       << " segments");
    const std::vector<std::int64_t> host = exact_input<std::int64_t, kprim::Sum>(layout.n, 5 + layout.n);
    check(layout, host, totals_of<std::int64_t>(kprim::Sum{}));
    check(layout, host, totals_of<std::int64_t>(kprim::Max{}));
    const std::vector<Mat2> matrices = random_matrices(layout.n, 4 + layout.n);
    check(layout, matrices, totals_of<Mat2>(MatMulMod{}));
    check(layout, matrices, totals_of<Mat2>(MatMulModNoIdentity{}, Mat2{2, 1, 1, 1}));
    using Affine16 = Affine<std::uint16_t>;
    using Affine32 = Affine<std::uint32_t>;
    check(layout, random_maps<std::uint16_t>(layout.n, 6 + layout.n), totals_of<Affine16>(AffineThen{}, Affine16(3, 1)));
    check(layout, random_maps<std::uint32_t>(layout.n, 7 + layout.n), totals_of<Affine32>(AffineThen{}, Affine32(3, 1)));
  }
}

/// The calls any op can make (a reduce from init, both scans) over CSR offsets and, when size > 0,
/// over segments of `size` elements; guards after every output.
template <class Space, class T, class Op>
void check_calls_from_init(const Space& space, const std::vector<T>& host, const std::vector<std::int64_t>& offsets,
                           std::int64_t size, const Op& op, const T& init, const kprim::ScanOptions& options = {}) {
  const T guard = T(99);
  const std::size_t segments = offsets.size() - 1;
  const auto in = to_space(space, host, "in");
  const auto reduce = guarded(space, segments, guard);
  const auto inclusive = guarded(space, host.size(), guard);
  const auto exclusive = guarded(space, host.size(), guard);
  if (size > 0) {
    kprim::segmented_reduce(space, in, size, first_n(reduce, segments), init, op, options);
    kprim::segmented_inclusive_scan(space, in, size, first_n(inclusive, host.size()), op, options);
    kprim::segmented_exclusive_scan(space, in, size, first_n(exclusive, host.size()), init, op, options);
  } else {
    const auto offsets_view = to_space(space, offsets, "offsets");
    kprim::segmented_reduce(space, in, offsets_view, first_n(reduce, segments), init, op, options);
    kprim::segmented_inclusive_scan(space, in, offsets_view, first_n(inclusive, host.size()), op, options);
    kprim::segmented_exclusive_scan(space, in, offsets_view, first_n(exclusive, host.size()), init, op, options);
  }
  std::vector<T> unused, want_reduce, want_inclusive, want_exclusive;
  expected_segments(host, offsets, op, init, guard, unused, want_inclusive, want_exclusive, &want_reduce);
  CHECK(first_mismatch(to_host(reduce), want_reduce) == -1);
  CHECK(first_mismatch(to_host(inclusive), want_inclusive) == -1);
  CHECK(first_mismatch(to_host(exclusive), want_exclusive) == -1);
}

/// A float sum as a lambda (no identity, not declared commutative): the CUDA segmented scan kernel
/// and the pair scans take it.
template <class Space>
void check_lambda_sums(const Space& space, const std::vector<float>& host, const std::vector<std::int64_t>& offsets,
                       std::int64_t size, const kprim::ScanOptions& options) {
  check_calls_from_init(space, host, offsets, size, KOKKOS_LAMBDA(float a, float b) { return a + b; }, 0.5f, options);
}

TEMPLATE_LIST_TEST_CASE("segmented calls take ops without identity(), and a reduce takes init", "[segmented]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const Mat2 init{2, 1, 1, 1};
  const kprim::ScanOptions bitwise{.determinism = kprim::Determinism::bitwise};
  for (const Layout& layout : layouts()) {
    INFO(Space::name() << ", " << layout.name << ": " << layout.n << " elements, " << layout.offsets.size() - 1
                       << " segments");
    check_calls_from_init(space, random_matrices(layout.n, 3 + layout.n), layout.offsets, 0, MatMulModNoIdentity{},
                          init);
    // Small integers: every order gives the exact float sums.
    const std::vector<float> floats = exact_input<float, kprim::Sum>(layout.n, 9 + layout.n);
    check_lambda_sums(space, floats, layout.offsets, 0, {});
    check_lambda_sums(space, floats, layout.offsets, 0, bitwise);
    // An op with identity from init (the device's chunk path for long segments too).
    check_calls_from_init(space, floats, layout.offsets, 0, kprim::Sum{}, -3.0f);
  }
  for (const std::int64_t size : fixed_sizes(5000)) {
    INFO(Space::name() << ", segments of " << size);
    check_calls_from_init(space, random_matrices(5000, 5), fixed_offsets(5000, size), size, MatMulModNoIdentity{},
                          init);
    check_lambda_sums(space, exact_input<float, kprim::Sum>(5000, 6), fixed_offsets(5000, size), size, {});
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

TEMPLATE_LIST_TEST_CASE("segmented calls in bitwise mode give the same bits on every run", "[segmented][determinism]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  const Space space;
  const std::int64_t n = 200'003;
  std::mt19937_64 rng(26);
  std::vector<float> host(n);
  for (auto& v : host) v = float(std::uniform_real_distribution<double>(-1, 1)(rng));  // sums round
  std::vector<std::int64_t> lengths;
  for (std::int64_t total = 0; total < n;) {
    lengths.push_back(std::min<std::int64_t>(n - total, std::int64_t(rng() % 3000)));
    total += lengths.back();
  }
  const auto in = to_space(space, host, "in");
  const auto offsets = to_space(space, offsets_of(lengths), "offsets");
  const kprim::ScanOptions bitwise{.determinism = kprim::Determinism::bitwise};
  auto run = [&] {
    Kokkos::View<float*, memory_space> sums("sums", lengths.size()), inclusive("inclusive", n),
        exclusive("exclusive", n), fixed("fixed", (n + 999) / 1000);
    kprim::segmented_reduce(space, in, offsets, sums, kprim::Sum{}, bitwise);
    kprim::segmented_inclusive_scan(space, in, offsets, inclusive, kprim::Sum{}, bitwise);
    kprim::segmented_exclusive_scan(space, in, 1000, exclusive, 0.5f, kprim::Sum{}, bitwise);
    kprim::segmented_reduce(space, in, 1000, fixed, kprim::Sum{}, bitwise);
    return std::vector<std::vector<float>>{to_host(sums), to_host(inclusive), to_host(exclusive), to_host(fixed)};
  };
  const auto first = run();
  Kokkos::View<float*, memory_space> other("other", lengths.size());
  kprim::segmented_reduce(space, in, offsets, other);  // the default paths in between
  const auto second = run();
  for (std::size_t k = 0; k < first.size(); ++k) {
    INFO("output " << k);
    CHECK(std::memcmp(first[k].data(), second[k].data(), first[k].size() * sizeof(float)) == 0);
  }
  // And they are the segments' sums, to float rounding.
  const auto sums = first[0];
  const auto offsets_host = offsets_of(lengths);
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    double exact = 0;
    for (std::int64_t i = offsets_host[s]; i < offsets_host[s + 1]; ++i) exact += host[i];
    CHECK(std::abs(sums[s] - exact) <= 1e-4 * (1 + std::abs(exact)));
  }
}
