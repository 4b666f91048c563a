// Long segmented scans and reduces on CUDA, at the sizes where plain scans take the look-ahead
// kernel (sm_90; there the 4- and 8-byte types with a commutative op take the segmented look-ahead
// kernel, the others the lagged one): CSR mixes (0-32, power law, ~1000, one segment, starts on
// and next to tile edges, dense tiles among long segments, partial coverage), fixed-size
// segments, inclusive, exclusive and in place, every type with Sum and Max and a non-commutative
// op, guard elements after every output and around the elements no segment covers.

#include "../segmented_support.hpp"
#include "affine_maps.hpp"

#include <kprim/impl/cuda/trait.hpp>
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(__CUDACC__)
#include <kprim/impl/cuda/lookahead_scan.cuh>  // the look-ahead kernel's sizes
#endif

#include <algorithm>
#include <map>

using namespace kprim_test;

namespace {

/// The look-ahead kernel's tile for T, and the size from which T's scans take it on this GPU (its
/// threshold, as in test_cuda_paths.cpp; the same numbers test the other kernels where it is not built).
template <class T>
constexpr std::int64_t lookahead_tile() {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(__CUDACC__)
  return kprim::impl::cuda::LookaheadShape<T>::tile_size;
#else
  return 16 * 1024 / std::int64_t(sizeof(T));
#endif
}
template <class T>
std::int64_t lookahead_threshold() {
  int device = 0, sm_count = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
  const std::int64_t first = 8 * std::int64_t(sm_count) * 3 * lookahead_tile<T>();
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(__CUDACC__)
  REQUIRE_FALSE(kprim::impl::cuda::takes_lookahead_scan<T>(first - 1, sm_count));
  REQUIRE(kprim::impl::cuda::takes_lookahead_scan<T>(first, sm_count));
#endif
  return first;
}

/// CSR layouts over about n elements: the mixes, and segments starting on the tiles' edges.
template <class T>
std::vector<Layout> long_layouts(std::int64_t n) {
  const std::int64_t tile = lookahead_tile<T>();
  std::mt19937_64 rng(n);
  std::vector<Layout> list;
  const auto until = [&](auto length) {
    std::vector<std::int64_t> lengths;
    std::int64_t total = 0;
    while (total < n) {
      lengths.push_back(std::min<std::int64_t>(length(), n - total));
      total += lengths.back();
    }
    return lengths;
  };
  list.push_back({"tiny and empty (0-32)", n, offsets_of(until([&] { return std::int64_t(rng() % 33); }))});
  list.push_back({"power law", n, offsets_of(until([&] {
                    const double u = double(rng() % 1'000'000 + 1) / 1e6;
                    return std::min<std::int64_t>(std::int64_t(std::pow(u, -1.5)) - 1, n / 3);
                  }))});
  list.push_back({"about a thousand, empty ones among them", n,
                  offsets_of(until([&] { return rng() % 5 == 0 ? std::int64_t(0) : std::int64_t(rng() % 2000); }))});
  list.push_back({"one segment", n, {0, n}});
  // Fewer offsets than the heads warp's window (HeadsWindow): it is loaded once and holds every tile's.
  list.push_back({"a few hundred segments", n,
                  offsets_of(until([&] { return std::int64_t(rng() % std::uint64_t(n / 150)); }))});
  // Starts on tile edges and one element either side of them, with empty segments there.
  std::int64_t k = 0;
  list.push_back({"starts on and next to tile edges", n, offsets_of(until([&] {
                    const std::int64_t lengths[] = {tile, 0, tile - 1, tile + 1, 2 * tile, 0, 1, tile - 1};
                    return lengths[k++ % 8];
                  }))});
  // Sparse on the whole (CSR calls then find their heads in the offsets) but dense in three tiles
  // and 7 elements: one-element segments there, so a tile's search reads thousands of offsets.
  std::int64_t at = 0;
  list.push_back({"dense tiles among long segments", n, offsets_of(until([&] {
                    const bool dense = at >= 5 * tile && at < 8 * tile + 7;
                    const std::int64_t length = dense ? 1 : 1 + std::int64_t(rng() % (2 * tile));
                    at += length;
                    return length;
                  }))});
  // Runs of 3000 one-element segments between segments of 25 tiles: a search bracket spans both,
  // so the window interpolated in it starts past the first head or ends short of it.
  std::int64_t in_run = 0;
  list.push_back({"runs of one-element segments between long ones", n, offsets_of(until([&] {
                    in_run = (in_run + 1) % 3001;
                    return in_run == 0 ? 25 * tile : std::int64_t(1);
                  }))});
  // Elements before offsets(0) and from offsets(S) on, each more than a tile, are left alone.
  const std::int64_t begin = tile + 5, end = n - 3 * tile - 11;
  std::vector<std::int64_t> inner;
  for (std::int64_t total = begin; total < end;) {
    inner.push_back(std::min<std::int64_t>(std::int64_t(rng() % 3000), end - total));
    total += inner.back();
  }
  list.push_back({"partial coverage", n, offsets_of(inner, begin)});
  return list;
}

/// The offsets calls (segmented_support.hpp's, guards included), then the inclusive scan in place:
/// the elements outside the segments keep their input.
template <class T, class Op>
void check_long_offsets(const std::vector<T>& host, const Layout& layout, const Op& op, const T& init,
                        const T& guard) {
  const Kokkos::Cuda space;
  check_offsets_calls(space, layout, host, op, init, guard);
  const std::size_t n = host.size();
  std::vector<T> want_reduce, want_inclusive, want_exclusive;
  expected_segments(host, layout.offsets, op, init, guard, want_reduce, want_inclusive, want_exclusive);
  for (std::int64_t i = 0; i < layout.offsets.front(); ++i) want_inclusive[i] = host[i];
  for (std::size_t i = std::size_t(layout.offsets.back()); i < n; ++i) want_inclusive[i] = host[i];
  std::vector<T> with_guard(host);
  with_guard.push_back(guard);
  const auto in_place = to_space(space, with_guard, "in place");
  const auto offsets = to_space(space, layout.offsets, "offsets");
  kprim::segmented_inclusive_scan(space, first_n(in_place, n), offsets, first_n(in_place, n), op);
  CHECK(first_mismatch(to_host(in_place), want_inclusive) == -1);
}

/// Every layout and fixed size at the look-ahead threshold plus a tile and 3 (a short last tile),
/// and the fixed sizes at the threshold itself.
template <class T, class Op>
void check_long_segmented(const Op& op, const T& init, const T& guard, const std::vector<T>& (*input)(std::int64_t)) {
  const std::int64_t threshold = lookahead_threshold<T>();
  const std::int64_t n = threshold + lookahead_tile<T>() + 3;
  if (n > max_test_size()) return;
  const std::vector<T>& host = input(n);
  static std::map<std::int64_t, std::vector<Layout>> layouts_of;  // made once: Catch2 enters the case per section
  if (!layouts_of.count(n)) layouts_of[n] = long_layouts<T>(n);
  // A section each (a sanitizer run may pick one with -c).
  for (const Layout& layout : layouts_of[n]) {
    DYNAMIC_SECTION(layout.name) {
      INFO(layout.name << ": " << n << " elements, " << layout.offsets.size() - 1 << " segments");
      check_long_offsets(host, layout, op, init, guard);
    }
  }
  for (const std::int64_t size : {std::int64_t(1), std::int64_t(3), lookahead_tile<T>(), lookahead_tile<T>() + 1,
                                  std::int64_t(1'000'003), n}) {
    DYNAMIC_SECTION("segments of " << size) {
      INFO("segments of " << size << ", " << n << " and " << threshold << " elements");
      check_fixed_calls(Kokkos::Cuda{}, size, host, op, init, guard);
      const std::vector<T> at_threshold(host.begin(), host.begin() + threshold);
      check_fixed_calls(Kokkos::Cuda{}, size, at_threshold, op, init, guard);
    }
  }
}

template <class T, class Op>
const std::vector<T>& exact_values(std::int64_t n) {
  static std::vector<T> values;
  if (std::int64_t(values.size()) != n) values = exact_input<T, Op>(n, 20261201);
  return values;
}

template <class F, class Op>
const std::vector<F>& random_maps(std::int64_t n) {
  static std::vector<F> maps;
  if (std::int64_t(maps.size()) != n) maps = random_affine_maps<F, Op>(n, n);
  return maps;
}

/// Every type with an op of an identity at zero and one of another (Sum, Max).
using LongCases = typename cases<std::tuple<Kokkos::Cuda>, Values, std::tuple<kprim::Sum, kprim::Max>>::type;

}  // namespace

TEMPLATE_LIST_TEST_CASE("CUDA paths: long segmented scans, every type, Sum and Max", "[cuda][segmented]",
                        LongCases) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  check_long_segmented<T, Op>(Op{}, exact_init<T, Op>(), T(99), exact_values<T, Op>);
}

TEST_CASE("CUDA paths: long segmented scans of a non-commutative op", "[cuda][segmented]") {
  SECTION("4 bytes") {
    check_long_segmented<Affine16, ThenAffine16>(ThenAffine16{}, Affine16{7, 11}, Affine16{3, 5},
                                                 random_maps<Affine16, ThenAffine16>);
  }
  SECTION("8 bytes") {
    check_long_segmented<Affine32, ThenAffine32>(ThenAffine32{}, Affine32{7, 11}, Affine32{3, 5},
                                                 random_maps<Affine32, ThenAffine32>);
  }
}
