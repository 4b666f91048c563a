#pragma once
// Thread layer, host only: a scan run written to memory with streaming (non-temporal) stores.
//
// A store that misses the cache first reads the line it is about to overwrite (write-allocate),
// so a scan that reads 4-byte counts and writes 8-byte offsets moves 4 + 8 + 8 bytes per element.
// Streaming stores go to memory without that read: 12 bytes. They only pay off for outputs far
// larger than the caches and not read again soon, so the driver takes them for large outputs only
// (single_pass_driver.hpp). Each 16-byte store is packed from values held in registers: staging
// them in a buffer and loading 16 bytes back stalls on store forwarding (2.5x slower than plain
// stores with g++ 13 on an Intel Xeon, 2026-11-25). The run ends with a store fence, so its values
// are visible before the tile is published as done.
#include <kprim/impl/thread/chained_run.hpp>

#include <bit>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kprim::impl::thread {

/// Whether this build streams stores of T: x86 with SSE2 (every x86-64), T of 4, 8 or 16 bytes.
template <class T>
inline constexpr bool can_stream_v =
#if defined(__SSE2__)
    std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T> &&
    (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);
#else
    false;
#endif

#if defined(__SSE2__)
/// The 16 bytes of v[0 .. 16 / sizeof(T)), built in registers.
template <class T>
inline __m128i pack16(const T* v) {
  if constexpr (sizeof(T) == 4) {
    return _mm_set_epi32(std::bit_cast<int>(v[3]), std::bit_cast<int>(v[2]), std::bit_cast<int>(v[1]),
                         std::bit_cast<int>(v[0]));
  } else if constexpr (sizeof(T) == 8) {
    return _mm_set_epi64x(std::bit_cast<long long>(v[1]), std::bit_cast<long long>(v[0]));
  } else {
    struct Halves {
      long long low, high;
    };
    const Halves halves = std::bit_cast<Halves>(v[0]);
    return _mm_set_epi64x(halves.high, halves.low);
  }
}
#endif

/// scan_run_streamed() with `exclusive` fixed at compile time (as thread::scan_run_as).
template <bool Exclusive, class T, class Get, class Op>
T scan_run_streamed_as(std::int64_t begin, std::int64_t end, const Get& get, T* out, T prefix, const Op& op) {
  const auto put = [out](std::int64_t i, const T& v) { out[i] = v; };
#if defined(__SSE2__)
  if constexpr (can_stream_v<T>) {
    std::int64_t body = begin;
    while (body < end && body - begin < 16 && (reinterpret_cast<std::uintptr_t>(out + body) & 15) != 0) ++body;
    if ((reinterpret_cast<std::uintptr_t>(out + body) & 15) == 0) {
      prefix = scan_run_as<Exclusive, T>(begin, body, get, put, prefix, op);
      // Floating point: blocks of 8 as thread::scan_run; other types: one store's worth at a time.
      constexpr int group = std::is_floating_point_v<T> ? 8 : int(16 / sizeof(T));
      constexpr int per_store = int(16 / sizeof(T));
      for (; body + group <= end; body += group) {
        T values[group];
        prefix = scan_block<group, Exclusive>(body, get, prefix, op, values);
        __m128i* to = reinterpret_cast<__m128i*>(out + body);
        for (int s = 0; s < group / per_store; ++s) _mm_stream_si128(to + s, pack16(values + s * per_store));
      }
      prefix = scan_run_as<Exclusive, T>(body, end, get, put, prefix, op);
      _mm_sfence();
      return prefix;
    }
  }
#endif
  return scan_run_as<Exclusive, T>(begin, end, get, put, prefix, op);
}

/// thread::scan_run of get(begin .. end) into out[begin .. end) (contiguous memory), the 16-byte
/// aligned body of the run written with streaming stores. Returns op(prefix, whole run).
template <class T, class Get, class Op>
T scan_run_streamed(std::int64_t begin, std::int64_t end, const Get& get, T* out, T prefix, bool exclusive,
                    const Op& op) {
  if (exclusive) return scan_run_streamed_as<true, T>(begin, end, get, out, prefix, op);
  return scan_run_streamed_as<false, T>(begin, end, get, out, prefix, op);
}

}  // namespace kprim::impl::thread
