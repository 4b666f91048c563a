#pragma once
// Thread layer, host only: a Sum scan of contiguous memory in 16-byte SSE2 vectors.
//
// thread::scan_run reads and writes one element at a time through the kernel's accessors; g++
// neither merges those into vector loads nor vectorizes the running sum, so a float or int32
// scan costs 0.5-0.7 ns per element on one core. Here each 16-byte vector (4 lanes of 4 bytes, 2
// of 8) is loaded once (converted from narrower integers or float where the input is), scanned
// in its lanes by shifted adds, four vectors form a block, and the block waits on one add of the
// running prefix. One thread, tile of 16384 in L2, ns per element, 2-core AMD EPYC VM, 2026-11-27
// (perf_tests/host_vector_scan.cpp): float 0.70-0.72 -> 0.38-0.39, int32 0.66-0.72 -> 0.28-0.31.
// As thread::scan_run's blocks of 8, a floating-point block is summed in another order than one
// element after the other (within the accuracy bound; Determinism::bitwise never comes here).
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kprim::impl::thread {

/// Whether sum_scan_vectors() takes a run of In summed as T on this build: x86 (SSE2); T float,
/// double or an integer of 4 or 8 bytes; In the same type, an integer of T's size, a 4-byte
/// integer widened to an 8-byte one, or float to double.
template <class In, class T>
inline constexpr bool can_sum_scan_vectors_v =
#if defined(__SSE2__)
    std::is_same_v<In, T> ? (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                             (std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)))
    : std::is_integral_v<In> && std::is_integral_v<T> && !std::is_same_v<In, bool>
        ? (sizeof(In) == sizeof(T) && (sizeof(T) == 4 || sizeof(T) == 8)) || (sizeof(In) == 4 && sizeof(T) == 8)
        : std::is_same_v<In, float> && std::is_same_v<T, double>;
#else
    false;
#endif

namespace vector_sum {

/// Scans in[0 .. count) into out from prefix, one element at a time.
template <bool Exclusive, class T, class In>
inline T sum_scan_elements(const In* in, T* out, std::int64_t count, T prefix) {
  for (std::int64_t i = 0; i < count; ++i) {
    const T value = T(in[i]);
    if constexpr (Exclusive) {
      out[i] = prefix;
      prefix += value;
    } else {
      prefix += value;
      out[i] = prefix;
    }
  }
  return prefix;
}

}  // namespace vector_sum

#if defined(__SSE2__)
namespace vector_sum {

template <class T>
inline constexpr int lanes = int(16 / sizeof(T));

template <class T>
inline __m128i add(__m128i a, __m128i b) {
  if constexpr (std::is_same_v<T, float>)
    return _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)));
  else if constexpr (std::is_same_v<T, double>)
    return _mm_castpd_si128(_mm_add_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b)));
  else if constexpr (sizeof(T) == 4)
    return _mm_add_epi32(a, b);
  else
    return _mm_add_epi64(a, b);
}

/// Lanes moved up by `by` (lane k to k + by), zeros (the sum's identity) shifted in.
template <class T, int by>
inline __m128i up(__m128i v) {
  return _mm_slli_si128(v, by * int(sizeof(T)));
}

/// The last lane in every lane.
template <class T>
inline __m128i last_lane(__m128i v) {
  if constexpr (sizeof(T) == 4) return _mm_shuffle_epi32(v, 0xFF);
  else return _mm_shuffle_epi32(v, 0xEE);
}

/// The inclusive sum of v's lanes.
template <class T>
inline __m128i scan_lanes(__m128i v) {
  v = add<T>(v, up<T, 1>(v));
  if constexpr (lanes<T> == 4) v = add<T>(v, up<T, 2>(v));
  return v;
}

/// lanes<T> elements of In from p, converted to T.
template <class T, class In>
inline __m128i load(const In* p) {
  if constexpr (sizeof(In) == sizeof(T)) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  } else {
    const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    if constexpr (std::is_same_v<In, float>)
      return _mm_castpd_si128(_mm_cvtps_pd(_mm_castsi128_ps(x)));
    else if constexpr (std::is_signed_v<In>)
      return _mm_unpacklo_epi32(x, _mm_srai_epi32(x, 31));  // sign-extended
    else
      return _mm_unpacklo_epi32(x, _mm_setzero_si128());
  }
}

template <bool Stream, class T>
inline void store(T* p, __m128i v) {
  if constexpr (Stream) _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
  else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

template <class T>
inline __m128i broadcast(T value) {
  T copies[lanes<T>];
  for (int k = 0; k < lanes<T>; ++k) copies[k] = value;
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(copies));
}

template <class T>
inline T first_lane(__m128i v) {
  T values[lanes<T>];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(values), v);
  return values[0];
}

/// Blocks of 4 vectors: one 64-byte line of 4-byte values (int32 in L2: blocks of 1 / 2 / 4
/// vectors 0.37-0.39 / 0.30-0.32 / 0.27-0.28 ns per element).
inline constexpr int block_vectors = 4;

/// The inclusive sums of the block at in within the block, vector by vector (off the running
/// prefix's chain, which then waits on one add a block).
template <class T, class In>
inline void scan_block(const In* in, __m128i (&x)[block_vectors]) {
  for (int v = 0; v < block_vectors; ++v) x[v] = scan_lanes<T>(load<T>(in + v * lanes<T>));
  for (int v = 1; v < block_vectors; ++v) x[v] = add<T>(x[v], last_lane<T>(x[v - 1]));
}

/// Stream: out is 16-byte aligned and takes streaming stores.
template <bool Exclusive, bool Stream, class T, class In>
inline T sum_scan_blocks(const In* in, T* out, std::int64_t count, T prefix) {
  constexpr int width = lanes<T>, vectors = block_vectors, block = vectors * width;
  __m128i carry = broadcast(prefix);
  std::int64_t i = 0;
  for (; i + block <= count; i += block) {
    __m128i x[vectors];
    scan_block<T>(in + i, x);
    for (int v = 0; v < vectors; ++v) {
      __m128i before = x[v];
      if constexpr (Exclusive) {  // each lane gets its left neighbour's sum; lane 0 the vector before's last
        before = up<T, 1>(x[v]);
        if (v > 0) before = _mm_or_si128(before, _mm_srli_si128(x[v - 1], 16 - int(sizeof(T))));
      }
      store<Stream>(out + i + v * width, add<T>(carry, before));
    }
    carry = add<T>(carry, last_lane<T>(x[vectors - 1]));
  }
  return sum_scan_elements<Exclusive>(in + i, out + i, count - i, first_lane<T>(carry));
}

/// Exclusive scan as the inclusive vectors stored one element further on (out[0] is the prefix):
/// no lane shift and no merge with the vector before. Not in place: a block's last store lands on
/// the next block's first input. One thread in L2: 1.2-1.9x the lane-shifting form (float 1.2x;
/// perf_tests/results/README.md, "The shifted exclusive scan in the library").
template <class T, class In>
inline T exclusive_sum_scan_shifted(const In* in, T* out, std::int64_t count, T prefix) {
  constexpr int width = lanes<T>, vectors = block_vectors, block = vectors * width;
  if (count == 0) return prefix;
  out[0] = prefix;
  __m128i carry = broadcast(prefix);
  std::int64_t i = 0;
  for (; i + block < count; i += block) {  // '<': the block's last store, out[i + block], is in range
    __m128i x[vectors];
    scan_block<T>(in + i, x);
    for (int v = 0; v < vectors; ++v) store<false>(out + i + 1 + v * width, add<T>(carry, x[v]));
    carry = add<T>(carry, last_lane<T>(x[vectors - 1]));
  }
  // out[0 .. i] are written (i < count): the rest is in[i + 1 ..) exclusive from the sum through in[i].
  T through_i = first_lane<T>(carry);
  through_i += T(in[i]);
  return sum_scan_elements<true>(in + i + 1, out + i + 1, count - i - 1, through_i);
}

/// Whether in[0 .. count) and out[0 .. count) share a byte.
template <class T, class In>
inline bool overlap(const In* in, const T* out, std::int64_t count) {
  const auto in_begin = reinterpret_cast<std::uintptr_t>(in), out_begin = reinterpret_cast<std::uintptr_t>(out);
  return in_begin < out_begin + std::uintptr_t(count) * sizeof(T) &&
         out_begin < in_begin + std::uintptr_t(count) * sizeof(In);
}

}  // namespace vector_sum
#endif

/// Sum scan of in[0 .. count) (converted to T) into out[0 .. count) from prefix (exclusive: each
/// output the sum before its element). in may be out (every block is read before it is written).
/// stream: the aligned body is written with streaming stores and fenced (thread/streamed_run.hpp
/// says when that pays). Returns prefix plus the whole run.
template <class T, class In>
  requires can_sum_scan_vectors_v<In, T>
T sum_scan_vectors(const In* in, T* out, std::int64_t count, T prefix, bool exclusive, bool stream) {
#if defined(__SSE2__)
  using namespace vector_sum;
  if (stream) {
    std::int64_t head = 0;
    while (head < count && (reinterpret_cast<std::uintptr_t>(out + head) & 15) != 0) ++head;
    if ((reinterpret_cast<std::uintptr_t>(out + head) & 15) == 0) {
      T after;
      if (exclusive) {
        prefix = sum_scan_elements<true>(in, out, head, prefix);
        after = sum_scan_blocks<true, true>(in + head, out + head, count - head, prefix);
      } else {
        prefix = sum_scan_elements<false>(in, out, head, prefix);
        after = sum_scan_blocks<false, true>(in + head, out + head, count - head, prefix);
      }
      _mm_sfence();  // the values are visible before the tile is published as done
      return after;
    }
  }
  if (exclusive) {
    if (!overlap(in, out, count)) return exclusive_sum_scan_shifted(in, out, count, prefix);
    return sum_scan_blocks<true, false>(in, out, count, prefix);
  }
  return sum_scan_blocks<false, false>(in, out, count, prefix);
#else
  (void)stream;  // never called: can_sum_scan_vectors_v is false
  return exclusive ? vector_sum::sum_scan_elements<true>(in, out, count, prefix)
                   : vector_sum::sum_scan_elements<false>(in, out, count, prefix);
#endif
}

}  // namespace kprim::impl::thread
