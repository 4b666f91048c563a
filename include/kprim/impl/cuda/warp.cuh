#pragma once
// Warp layer, hand-written CUDA: reduce and scan across the lanes of one warp with register
// shuffles, unrolled at compile time. No shared memory, no block barrier, and no `volatile`
// warp-synchronous tricks (unsafe since Volta's independent thread scheduling): every exchange
// is a __shfl_*_sync over an explicit lane mask.
//
// Operand order is kept (a lane's own value is always the right operand of what comes from
// lower lanes), so these are also right for associative ops that are not commutative.

#if defined(KOKKOS_ENABLE_CUDA) || defined(__CUDACC__)

#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

inline constexpr int warp_size = 32;
inline constexpr unsigned full_warp_mask = 0xffffffffu;

/// Types one __shfl_*_sync moves natively (4 and 8 bytes).
template <class T>
inline constexpr bool shuffles_natively_v =
    std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

/// Types the warp steps move through registers: the native ones, and any other trivially
/// copyable value of at most 32 bytes as 4-byte words (CUB's ShuffleIndex does the same). Larger
/// or non-trivially-copyable accumulators go through shared memory (WarpSlots, block.cuh).
template <class T>
inline constexpr bool shuffles_v = shuffles_natively_v<T> || (std::is_trivially_copyable_v<T> && sizeof(T) <= 32);

enum class ShuffleKind { down, up, index };

/// One __shfl_*_sync of a 4- or 8-byte word (no lambdas here: a lambda the compiler does not
/// inline puts the shuffle behind a call and its operands on the stack, 2-3% of a scan).
/// `mask`: the lanes taking part (all 32 but where a group of vector lanes shuffles on its own).
template <ShuffleKind Kind, class Word>
__device__ __forceinline__ Word shuffle_word(Word word, int arg, int width, unsigned mask = full_warp_mask) {
  if constexpr (Kind == ShuffleKind::down) return __shfl_down_sync(mask, word, unsigned(arg), width);
  else if constexpr (Kind == ShuffleKind::up) return __shfl_up_sync(mask, word, unsigned(arg), width);
  else return __shfl_sync(mask, word, arg, width);
}

/// One warp shuffle of any `shuffles_v` type, as 4-byte words when it is not a native one.
template <ShuffleKind Kind, class T>
__device__ __forceinline__ T shuffle(const T& value, int arg, int width, unsigned mask = full_warp_mask) {
  if constexpr (shuffles_natively_v<T>) {
    return shuffle_word<Kind>(value, arg, width, mask);
  } else {
    static_assert(shuffles_v<T>, "kprim: this type moves through shared memory, not shuffles");
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned bits[words] = {};
    __builtin_memcpy(bits, &value, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w) bits[w] = shuffle_word<Kind>(bits[w], arg, width, mask);
    T result;
    __builtin_memcpy(&result, bits, sizeof(T));
    return result;
  }
}

template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, int offset, int width = 32, unsigned mask = full_warp_mask) {
  return shuffle<ShuffleKind::down>(value, offset, width, mask);
}
template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, int offset, int width = 32, unsigned mask = full_warp_mask) {
  return shuffle<ShuffleKind::up>(value, offset, width, mask);
}
template <class T>
__device__ __forceinline__ T shuffle_index(const T& value, int source_lane, int width = 32,
                                           unsigned mask = full_warp_mask) {
  return shuffle<ShuffleKind::index>(value, source_lane, width, mask);
}

/// Lane of the calling thread within its warp (threads are numbered x fastest, then y, z).
__device__ inline int lane_id() {
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return int(linear % warp_size);
}

namespace detail {
template <int Width, int Offset, class T, class Op>
__device__ __forceinline__ T reduce_down(T value, const Op& op) {
  if constexpr (Offset < Width) {
    // Lanes near the top of a group get their own value back and combine garbage; the first
    // lane's chain only ever reads lanes that combined valid partners, so no guard is needed.
    value = op(value, shuffle_down(value, Offset, Width));
    return reduce_down<Width, 2 * Offset>(value, op);
  } else {
    return value;
  }
}

template <int Width, int Offset, class T, class Op>
__device__ __forceinline__ T scan_up(T value, const Op& op, int lane_in_group) {
  if constexpr (Offset < Width) {
    const T lower = shuffle_up(value, Offset, Width);
    if (lane_in_group >= Offset) value = op(lower, value);
    return scan_up<Width, 2 * Offset>(value, op, lane_in_group);
  } else {
    return value;
  }
}
}  // namespace detail

/// op over the `Width` lanes of each aligned group (Width a power of two <= 32), in lane order.
/// The group's first lane gets the total; the others get partial values. All 32 lanes of the
/// warp must call it.
template <int Width = warp_size, class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, const Op& op) {
  static_assert(Width > 0 && Width <= warp_size && (Width & (Width - 1)) == 0,
                "kprim::impl::cuda::warp_reduce: Width must be a power of two <= 32");
  static_assert(shuffles_v<T>, "kprim::impl::cuda::warp_reduce: a type shuffles can move");
  // shfl_down pairs lane i with lane i + Offset: op(value_i, value_i+Offset) keeps lane order.
  return detail::reduce_down<Width, 1>(value, op);
}

/// Inclusive scan over the lanes of each aligned group of `Width` lanes: lane i gets
/// op(v_first, ..., v_i). All 32 lanes must call it.
template <int Width = warp_size, class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T value, const Op& op) {
  static_assert(Width > 0 && Width <= warp_size && (Width & (Width - 1)) == 0,
                "kprim::impl::cuda::warp_inclusive_scan: Width must be a power of two <= 32");
  static_assert(shuffles_v<T>, "kprim::impl::cuda::warp_inclusive_scan: a type shuffles can move");
  return detail::scan_up<Width, 1>(value, op, lane_id() % Width);
}

/// Exclusive scan over the warp from the inclusive one: lane i gets op(v_0, ..., v_{i-1}),
/// lane 0 gets `identity`; `total` receives op over all 32 lanes.
template <class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T value, const Op& op, const T& identity, T& total) {
  const T inclusive = warp_inclusive_scan(value, op);
  total = shuffle_index(inclusive, warp_size - 1);
  const T previous = shuffle_up(inclusive, 1);
  return lane_id() == 0 ? identity : previous;
}

}  // namespace kprim::impl::cuda

#endif
