#pragma once
// Shared by the segmented tests (test_segmented*.cpp): CSR layouts with every mix of segment
// lengths, the sequential answers, and the checks with guard elements after every output.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <kprim/segmented.hpp>

#include <cmath>

namespace kprim_test {

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
  std::vector<std::int64_t> thousands;  // mean ~800 (a device takes its chunk path), empty ones
  total = 0;                            // among them and at the end
  while (total < big) {
    thousands.push_back(rng() % 5 == 0 ? 0 : std::int64_t(rng() % 2000));
    total += thousands.back();
  }
  thousands.insert(thousands.end(), {0, 0});
  list.push_back({"about a thousand, empty ones among them", total, offsets_of(thousands)});
  list.push_back({"straddling tiles", 3 * 70'001 + 5, offsets_of({5, 70'001, 0, 70'001, 70'001})});
  // Starts on the CUDA kernel's tile edges (2048, 4096 and 8192 elements), empty segments there too.
  list.push_back({"starts on tile edges", 34'816, offsets_of({2048, 2048, 0, 4096, 0, 0, 8192, 8192, 1, 8191, 2047, 1})});
  list.push_back({"empty first and last", 100, offsets_of({0, 0, 50, 0, 50, 0, 0})});
  // Only part of the input in segments: elements before offsets(0) and from offsets(S) on are left.
  list.push_back({"partial coverage", 5000, offsets_of({10, 0, 2000, 7, 1}, 333)});
  // Host calls cut the input into chunks of at least 16384 elements: segments and gaps across them.
  list.push_back({"partial coverage, long", 200'000, offsets_of({40'000, 0, 100'000, 3}, 20'000)});
  std::vector<std::int64_t> alternating;  // an empty segment before every element: at every chunk edge
  for (int i = 0; i < 100'000; ++i) alternating.insert(alternating.end(), {0, 1});
  list.push_back({"an empty segment at every element", 100'000, offsets_of(alternating)});
  return list;
}

/// The sequential segmented results; elements outside every segment keep `guard`. An empty
/// segment's reduce is op's identity, or `guard` for an op without one; reduce_from_init, when
/// given, gets op(init, segment), init for an empty one (the overloads with init).
template <class T, class Op>
void expected_segments(const std::vector<T>& in, const std::vector<std::int64_t>& offsets, const Op& op, const T& init,
                       const T& guard, std::vector<T>& reduce, std::vector<T>& inclusive, std::vector<T>& exclusive,
                       std::vector<T>* reduce_from_init = nullptr) {
  const std::size_t segments = offsets.size() - 1;
  reduce.assign(segments + 1, guard);
  inclusive.assign(in.size() + 1, guard);
  exclusive.assign(in.size() + 1, guard);
  if (reduce_from_init) reduce_from_init->assign(segments + 1, guard);
  for (std::size_t s = 0; s < segments; ++s) {
    T running = guard;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      const bool head = i == offsets[s];
      exclusive[i] = head ? init : T(op(init, running));
      running = head ? in[i] : T(op(running, in[i]));
      inclusive[i] = running;
    }
    const bool empty = offsets[s] == offsets[s + 1];
    if constexpr (kprim::HasIdentity<Op, T>) reduce[s] = empty ? kprim::identity_of<T>(op) : running;
    else reduce[s] = running;
    if (reduce_from_init) (*reduce_from_init)[s] = empty ? init : T(op(init, running));
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

/// Runs the three offsets calls and checks them, every output followed by an element of `guard`,
/// which the elements outside the segments must keep too.
template <class Space, class T, class Op>
void check_offsets_calls(const Space& space, const Layout& layout, const std::vector<T>& host, const Op& op,
                         const T& init, const T& guard = T(99)) {
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

/// Offsets of segments of `size` over n elements (the last one shorter).
inline std::vector<std::int64_t> fixed_offsets(std::int64_t n, std::int64_t size) {
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < n) offsets.push_back(std::min(n, offsets.back() + size));
  return offsets;
}

/// Runs the three fixed-size calls and checks them (guards as check_offsets_calls).
template <class Space, class T, class Op>
void check_fixed_calls(const Space& space, std::int64_t size, const std::vector<T>& host, const Op& op,
                       const T& init, const T& guard = T(99)) {
  const std::vector<std::int64_t> offsets = fixed_offsets(std::int64_t(host.size()), size);
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


/// The offsets calls over every layout for one (space, type, op) case.
template <class Case>
void run_offsets_case() {
  using Space = typename Case::space;
  using T = typename Case::value;
  using Op = typename Case::op;
  const Space space;
  for (const Layout& layout : layouts()) {
    INFO(case_name<Case>() << ", " << layout.name << ": " << layout.n << " elements, " << layout.offsets.size() - 1
                           << " segments");
    check_offsets_calls(space, layout, exact_input<T, Op>(layout.n, 7 + layout.n), Op{}, exact_init<T, Op>());
  }
}

/// The fixed-size calls over several n and sizes for one (space, type, op) case.
template <class Case>
void run_fixed_case() {
  using Space = typename Case::space;
  using T = typename Case::value;
  using Op = typename Case::op;
  const Space space;
  for (const std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(999), std::int64_t(100'003)}) {
    for (const std::int64_t size : fixed_sizes(n)) {
      if (size < 1) continue;
      INFO(case_name<Case>() << ", " << n << " elements in segments of " << size);
      check_fixed_calls(space, size, exact_input<T, Op>(n, 11 + n), Op{}, exact_init<T, Op>());
    }
  }
}

}  // namespace kprim_test

/// The two test cases of one built-in op over every space and value type: one translation unit
/// per op, so nvcc compiles them in parallel (one unit for all four took over 5 minutes).
#define KPRIM_SEGMENTED_CASES(Op, name)                                                                       \
  using SegmentedCases##name = kprim_test::cases<kprim_test::Spaces, kprim_test::Values, std::tuple<Op>>::type; \
  TEMPLATE_LIST_TEST_CASE("segmented reduce and scans over CSR offsets, " #name, "[segmented]",               \
                          SegmentedCases##name) {                                                             \
    kprim_test::run_offsets_case<TestType>();                                                                 \
  }                                                                                                           \
  TEMPLATE_LIST_TEST_CASE("segmented reduce and scans over fixed-size segments, " #name, "[segmented]",       \
                          SegmentedCases##name) {                                                             \
    kprim_test::run_fixed_case<TestType>();                                                                   \
  }
