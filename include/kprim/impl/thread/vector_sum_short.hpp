#pragma once
// Thread layer, host only: the Sum of a short run (1-32 elements) in 16-byte SSE2 vectors with
// no branch on its length.
//
// A plain loop over segments of random lengths mispredicts its exit once a segment (~20 cycles,
// more than the segment's adds). Here every run reads the same 32 elements, the lanes past its
// end replaced by the sum's identity through a mask picked by the length, and the masked vectors
// are added as a tree. One thread, 2^24 elements in segments of 1-32, 2-core AMD EPYC VM,
// 2026-11-28, ns per element: float 0.79 -> 0.33-0.37, int32 0.76-0.78 -> 0.31-0.36, int64 0.78 ->
// 0.53-0.59, int32 -> int64 0.77-0.78 -> 0.44-0.45, float -> double 0.83 -> 0.54-0.56
// (perf_tests/results/README.md, "Short segments without a branch on their length"). As
// vector_sum_scan.hpp, a floating-point run is
// summed in another order than one element after the other (Determinism::bitwise never comes
// here).
#include <kprim/impl/thread/vector_sum_scan.hpp>

#include <cstdint>

namespace kprim::impl::thread {

/// Elements short_sum() reads: runs of up to this length take it.
inline constexpr int short_sum_window = 32;

/// Whether short_sum() takes runs of In summed as T: what can_sum_scan_vectors_v takes but double
/// (16 vectors of loads and masks a run cost what the loop's mispredicted exit does: 0.75-0.79
/// against 0.73 ns per element, where float -> double runs at 0.54 against 0.83).
template <class In, class T>
inline constexpr bool can_short_sum_v = can_sum_scan_vectors_v<In, T> && !(std::is_same_v<In, double> && std::is_same_v<T, double>);

#if defined(__SSE2__)
namespace vector_sum {

/// Lane masks by length for lanes of `LaneBytes`: row L of `keep` has the first L of
/// short_sum_window lanes set; row L of `fill` the sign bit of the others (-0.0, the identity of
/// a floating-point sum: x + -0.0 is x for every x, -0.0 included; +0.0 would turn a sum of -0.0
/// into +0.0).
template <int LaneBytes>
struct LengthMasks {
  static constexpr int words = short_sum_window * LaneBytes / 4;
  alignas(16) std::uint32_t keep[short_sum_window + 1][words];
  alignas(16) std::uint32_t fill[short_sum_window + 1][words];
  constexpr LengthMasks() : keep{}, fill{} {
    for (int length = 0; length <= short_sum_window; ++length)
      for (int word = 0; word < words; ++word) {
        const bool kept = word / (LaneBytes / 4) < length, sign_word = word % (LaneBytes / 4) == LaneBytes / 4 - 1;
        keep[length][word] = kept ? ~0u : 0u;
        fill[length][word] = !kept && sign_word ? 0x80000000u : 0u;
      }
  }
};
template <int LaneBytes>
inline constexpr LengthMasks<LaneBytes> length_masks{};

/// The sum of v's lanes.
template <class T>
inline T sum_lanes(__m128i v) {
  v = add<T>(v, _mm_unpackhi_epi64(v, v));
  if constexpr (lanes<T> == 4) v = add<T>(v, _mm_shuffle_epi32(v, 0x55));
  return first_lane<T>(v);
}

}  // namespace vector_sum
#endif

/// The sum (as T) of p[0 .. length), 1 <= length <= short_sum_window, reading all of
/// p[0 .. short_sum_window). In and T as can_short_sum_v allows.
template <class T, class In>
  requires can_short_sum_v<In, T>
inline T short_sum(const In* p, int length) {
#if defined(__SSE2__)
  using namespace vector_sum;
  constexpr int vectors = short_sum_window / lanes<T>;
  constexpr const LengthMasks<int(sizeof(T))>& masks = length_masks<int(sizeof(T))>;
  const auto* keep = reinterpret_cast<const __m128i*>(masks.keep[length]);
  const auto* fill = reinterpret_cast<const __m128i*>(masks.fill[length]);
  __m128i kept[vectors];
  for (int v = 0; v < vectors; ++v) {
    kept[v] = _mm_and_si128(load<T>(p + v * lanes<T>), _mm_load_si128(keep + v));
    if constexpr (std::is_floating_point_v<T>) kept[v] = _mm_or_si128(kept[v], _mm_load_si128(fill + v));
  }
  for (int width = vectors / 2; width >= 1; width /= 2)  // a tree: no chain of dependent adds
    for (int v = 0; v < width; ++v) kept[v] = add<T>(kept[v], kept[v + width]);
  return sum_lanes<T>(kept[0]);
#else
  T value = T(p[0]);
  for (int i = 1; i < length; ++i) value += T(p[i]);
  return value;
#endif
}

}  // namespace kprim::impl::thread
