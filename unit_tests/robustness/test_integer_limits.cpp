// Integer limits and order-sensitive ops through every algorithm: INT_MIN/INT_MAX with Min/Max,
// unsigned wrap-around with Sum, and an associative but non-commutative concatenation.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

using namespace kprim_test;

namespace {

using IntegerCases = typename cases<Spaces, std::tuple<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>,
                                    std::tuple<kprim::Min, kprim::Max>>::type;
using UnsignedCases = typename cases<Spaces, std::tuple<std::uint32_t, std::uint64_t>, std::tuple<kprim::Sum>>::type;

/// Index of the first element where the two differ (-1: none); works for types without <<.
template <class T>
std::int64_t first_difference(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size()) return 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == expected[i])) return std::int64_t(i);
  return -1;
}

/// Checks reduce, inclusive and exclusive scan (seeded with `init`, total included) of `host`
/// under every configuration against the left-to-right host reference.
template <class Space, class T, class Op>
void check_every_configuration(const Space& space, const std::vector<T>& host, const Op& op, T init) {
  const auto in = to_space(space, host, "in");
  const auto inclusive = reference_inclusive(host, op);
  T total{};
  const auto exclusive = reference_exclusive(host, op, init, total);
  const T reduced = host.empty() ? kprim::identity_of<T>(op) : inclusive.back();
  for (const auto& options : reduce_variants(space)) {
    INFO("n = " << host.size() << ", reduce, " << describe(options));
    CHECK(bool(kprim::reduce(space, in, op, options) == reduced));
  }
  Kokkos::View<T*, typename Space::memory_space> out("out", host.size());
  Kokkos::View<T, Kokkos::HostSpace> scan_total("scan_total");
  for (const auto& options : scan_variants(space)) {
    INFO("n = " << host.size() << ", scan, " << describe(options));
    kprim::inclusive_scan(space, in, out, op, options);
    CHECK(first_difference(to_host(out), inclusive) == -1);
    kprim::exclusive_scan(space, in, out, init, scan_total, op, options);
    space.fence();
    CHECK(first_difference(to_host(out), exclusive) == -1);
    CHECK(bool(scan_total() == total));
  }
}

/// A string of digits kept as its length and its first and last `keep` characters: concatenation
/// is associative but not commutative, and any reordering shows up in the ends or the length.
struct Text {
  static constexpr int keep = 8;  // 8 + 2 x 8 bytes: no padding (compute-sanitizer initcheck reads copies whole)
  std::int64_t length = 0;
  char head[keep] = {};
  char tail[keep] = {};
  KOKKOS_FUNCTION friend bool operator==(const Text& a, const Text& b) {
    if (a.length != b.length) return false;
    for (int k = 0; k < keep; ++k)
      if (a.head[k] != b.head[k] || a.tail[k] != b.tail[k]) return false;
    return true;
  }
};

struct Concatenate {
  KOKKOS_FUNCTION Text identity() const { return {}; }
  KOKKOS_FUNCTION Text operator()(const Text& a, const Text& b) const {
    Text c;
    c.length = a.length + b.length;
    // head: a's characters first, then b's; tail: the last `keep` characters of a + b.
    for (int k = 0; k < Text::keep; ++k) {
      const std::int64_t from_a = a.length < Text::keep ? a.length : Text::keep;
      c.head[k] = k < from_a ? a.head[k] : (k - from_a < b.length ? b.head[k - from_a] : 0);
      // Character at position c.length - keep + k of a + b, if it exists.
      const std::int64_t position = c.length - Text::keep + k;
      if (position < 0) c.tail[k] = 0;
      else if (position >= a.length) c.tail[k] = b.tail[Text::keep - (c.length - position)];
      else c.tail[k] = a.tail[Text::keep - (a.length - position)];
    }
    return c;
  }
};

Text letter(std::int64_t i) {
  Text t;
  t.length = 1;
  t.head[0] = char('a' + i % 26);
  t.tail[Text::keep - 1] = t.head[0];
  return t;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Min and Max with the type's limits in the input", "[hostile]", IntegerCases) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    std::vector<T> host = exact_input<T, Op>(n, 2026'11'23);
    if (n > 0) host[n / 3] = std::numeric_limits<T>::min();
    if (n > 1) host[n - 1] = std::numeric_limits<T>::max();
    if (n > 2) host[0] = std::numeric_limits<T>::max();
    check_every_configuration(space, host, Op{}, T(std::numeric_limits<T>::max() / 2));
  }
}

TEMPLATE_LIST_TEST_CASE("unsigned Sum wraps around modulo 2^bits in every configuration", "[hostile]",
                        UnsignedCases) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    std::vector<T> host(n);
    std::mt19937_64 rng(n);
    for (auto& v : host) v = std::numeric_limits<T>::max() - T(rng() % 1000);  // wraps on almost every step
    check_every_configuration(space, host, kprim::Sum{}, T(std::numeric_limits<T>::max()));
  }
}

TEMPLATE_LIST_TEST_CASE("an associative, non-commutative concatenation keeps left-to-right order", "[hostile]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    std::vector<Text> host(n);
    for (std::int64_t i = 0; i < n; ++i) host[i] = letter(i * 7 + i / 26);
    Text seed;
    seed.length = 1;
    seed.head[0] = seed.tail[Text::keep - 1] = '#';
    check_every_configuration(space, host, Concatenate{}, seed);
  }
}
