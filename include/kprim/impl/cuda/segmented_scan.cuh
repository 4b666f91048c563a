#pragma once
// Device layer, hand-written CUDA: the segmented scans (kprim/segmented.hpp) in one single-pass
// kernel, the scan kernel's structure (scan.cuh) with values and heads kept apart.
//
// The generic engine scanned (value, head) pairs: 8-byte pairs for floats through shared memory,
// scalar loads through an index source and a sink that read x and the head bits again (0.45-0.47
// of a copy on an H100). Here the tile's values move as the plain scan's do (16-byte loads into
// per-lane runs in shared memory, WarpRuns), each lane takes the head bits of its run of `items`
// elements into one register (one or two words of the marks, or computed for fixed-size
// segments), folds its run from its last head on, and only the lanes' (value, has-head) totals go
// through the block scan (shuffles) and the look-back (one tile word of the pair). Each lane then
// rescans its run from its prefix, restarting at every head, and the runs are stored as the plain
// scan stores them; elements outside the segments (CSR offsets that do not start at 0 or end at n)
// are never written.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <kprim/impl/cuda/api.hpp>
#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/impl/cuda/lookahead_segmented_scan.cuh>
#include <kprim/impl/cuda/scan.cuh>
#include <kprim/impl/validate.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace kprim::impl::segments {
template <class T>
struct Headed;
}  // namespace kprim::impl::segments

namespace kprim::impl::cuda {

/// A (value, head) pair of an 8-byte value fills 12 of its 16 bytes: one 16-byte tile word carries
/// it with the flag, no fence (int32 -> int64 segmented scans: see takes_lagged_segments_v). A
/// pair of a value of up to 4 bytes takes the 8-byte word of its value (below).
template <class T>
inline constexpr std::size_t tile_word_payload_v<segments::Headed<T>> =
    sizeof(T) <= 4 ? 4 : (sizeof(T) == 8 ? sizeof(T) + sizeof(std::uint32_t) : sizeof(segments::Headed<T>));

/// The 8-byte tile word of a (value, head) pair of a value of up to 4 bytes: the value in the low
/// half, the head (0, 1, or 2 for the empty span) in the flag's top two bits, above the epoch
/// (max_tile_epoch leaves them free): a word of another epoch still reads as empty, to pairs and
/// to plain values alike. The look-ahead warp reads every tile's word: with 16-byte words the
/// segmented look-ahead kernel took float ~1000 at 2^26 in 158.4 us, with these 148.7 (H200,
/// 2026-12-02, ncu).
template <class T>
struct alignas(8) TileWord<segments::Headed<T>, TileWordKind::narrow> {
  static constexpr std::uint32_t flag_offset = 4;
  static constexpr unsigned empty_span_head = ~0u;  // segments::empty_span
  static constexpr unsigned head_shift = 30;         // the head's two bits; status and epoch below
  static_assert(max_tile_epoch < (1u << (head_shift - 2)), "kprim: the epoch must leave the head's bits free");
  unsigned long long bits;
  template <TileWrite Write = TileWrite::exchange>
  __device__ static void publish(TileWord* word, const segments::Headed<T>& pair, unsigned status, unsigned epoch = 0) {
    unsigned value_bits = 0;
    __builtin_memcpy(&value_bits, &pair.value, sizeof(T));
    const unsigned head = pair.head == empty_span_head ? 2u : (pair.head != 0 ? 1u : 0u);
    const unsigned flag = tile_flag(status, epoch) | (head << head_shift);
    write_tile_bits<Write>(word, (static_cast<unsigned long long>(flag) << 32) | value_bits);
  }
  __device__ static void read(const TileWord* word, segments::Headed<T>& pair, unsigned& status, unsigned epoch = 0) {
    unsigned long long bits;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(bits) : "l"(word) : "memory");
    const unsigned flag = unsigned(bits >> 32);
    status = tile_status(flag & ((1u << head_shift) - 1), epoch);
    const unsigned value_bits = unsigned(bits);
    __builtin_memcpy(&pair.value, &value_bits, sizeof(T));
    const unsigned head = flag >> head_shift;
    pair.head = head == 2 ? empty_span_head : head;
  }
};

/// The segmented scans' tiles: the plain scan's shapes for the accumulator (default_scan_policy,
/// or lagged_scan_policy for long scans), so a lane's head bits fit one 64-bit word.
template <class T>
using segmented_scan_policy = default_scan_policy<T>;

/// Scans `in` into `out` restarting at every head (heads.run_heads<Items>(first, n): bit k set
/// when element first + k starts a segment; heads.covered_begin() / covered_end(): the elements
/// that belong to a segment, the only ones written). Inclusive: out(i) = op over i's segment up to
/// i; exclusive: op(init, the same up to i - 1), init at a segment's first element.
/// Pair / PairOp: the (value, head) pair and its segmented op, for the lanes' and tiles' totals.
/// Tiles run as the plain scan's do (run_tiles: one per block, or lagged), with
/// scan_dynamic_bytes<T, Policy> of dynamic shared memory.
template <class T, class Pair, class PairOp, class Op, class Policy, class Source, class Heads, bool Exclusive,
          bool VectorIn, bool VectorOut>
__global__ void __launch_bounds__(Policy::block_size, Policy::min_blocks_per_sm)
    segmented_scan_kernel(Source in, Output<T> out, Heads heads, std::int64_t n, std::int64_t tiles, T init, Op op,
                          TileStates<Pair> states) {
  constexpr int block_size = Policy::block_size;
  constexpr int warps = block_size / warp_size;
  constexpr int items = Policy::items;
  constexpr std::int64_t tile_size = Policy::tile_size;
  static_assert(items <= 64, "kprim: a lane's head bits are one 64-bit word");
  using runs = WarpRuns<T, items>;
  constexpr int width = runs::width;
  constexpr int per_warp = warp_size * items;
  __shared__ BlockStorage<Pair, block_size> storage;
  __shared__ Slots<Pair, 1> prefix_storage;
  T* const warp_exchange = scan_warp_exchange<T, Policy>();
  const PairOp pair_op{op};
  // Pads the tile past n (folded into no stored element): op's identity, or any value for an op
  // without one, whose pair identity is the flagged empty span.
  const T filler = [&] {
    if constexpr (HasIdentity<Op, T>) return identity_of<T>(op);
    else return T{};
  }();
  const Pair no_pair = pair_op.identity();
  const int lane = lane_id();
  const std::int64_t warp_offset = std::int64_t(threadIdx.x / warp_size) * per_warp;

  // A begun tile: the lane's head bits and block-local prefix, and the tile's aggregate.
  struct Begun {
    std::int64_t tile;
    int buffer;
    std::uint64_t head_bits;
    Pair thread_prefix, aggregate;
  };
  const auto begin = [&](std::int64_t tile, int buffer) {
    T* const exchange = warp_exchange + buffer * warps * runs::elements;
    const std::int64_t warp_first = tile * tile_size + warp_offset;
    stage_tile<T, Policy, VectorIn>(in, warp_first, n, (tile + 1) * tile_size <= n, filler, exchange, lane);
    Begun begun{tile, buffer, heads.template run_heads<items>(warp_first + std::int64_t(lane) * items, n), no_pair,
                no_pair};
    // The lane's run from its last head on (all of it without one), started from its first
    // element (no identity needed).
    const T* const run = runs::run_of(exchange, lane);
    T folded = filler;
#pragma unroll
    for (int q = 0; q < items / width; ++q) {
      const Vector16<T> part = load_shared_vector(run + q * width);
#pragma unroll
      for (int k = 0; k < width; ++k)
        folded = (q == 0 && k == 0) || ((begun.head_bits >> (q * width + k)) & 1u) ? part.lane[k]
                                                                                   : T(op(folded, part.lane[k]));
    }
    begun.thread_prefix = block_exclusive_scan<block_size>(Pair{folded, begun.head_bits != 0 ? 1u : 0u}, pair_op,
                                                           no_pair, begun.aggregate, storage);
    if (threadIdx.x == 0 && states.words != nullptr)
      states.publish(tile, begun.aggregate, tile == 0 ? tile_inclusive : tile_aggregate);
    return begun;
  };
  const auto finish = [&](const Begun& begun) {
    if (begun.tile != 0 && threadIdx.x < warp_size) {
      const Pair exclusive_prefix = look_back(states, begun.tile, pair_op, no_pair);
      if (threadIdx.x == 0) {
        states.publish(begun.tile, pair_op(exclusive_prefix, begun.aggregate), tile_inclusive);
        prefix_storage[0] = exclusive_prefix;
      }
    }
    __syncthreads();
    const Pair tile_prefix = begun.tile == 0 ? no_pair : prefix_storage[0];

    // Rescan the run from the op over its segment's elements before it, restarting at each head.
    T* const exchange = warp_exchange + begun.buffer * warps * runs::elements;
    T* const run = runs::run_of(exchange, lane);
    T carry = pair_op(tile_prefix, begun.thread_prefix).value;
#pragma unroll
    for (int q = 0; q < items / width; ++q) {
      Vector16<T> part = load_shared_vector(run + q * width);
#pragma unroll
      for (int k = 0; k < width; ++k) {
        const T x = part.lane[k];
        const bool head = (begun.head_bits >> (q * width + k)) & 1u;
        if constexpr (Exclusive) {
          part.lane[k] = head ? init : T(op(init, carry));
          carry = head ? x : T(op(carry, x));
        } else {
          carry = head ? x : T(op(carry, x));
          part.lane[k] = carry;
        }
      }
      store_vector(run + q * width, part);
    }

    const std::int64_t warp_first = begun.tile * tile_size + warp_offset;
    const std::int64_t covered_begin = heads.covered_begin(), covered_end = heads.covered_end();
    if constexpr (VectorOut) {
      if ((begun.tile + 1) * tile_size <= n && warp_first >= covered_begin && warp_first + per_warp <= covered_end) {
        runs::unstage(out.data + warp_first, exchange, lane);
        return;
      }
    }
    runs::unstage_indexed(
        [&](std::int64_t i, const T& x) {
          if (i >= covered_begin && i < covered_end) out.put(i, x);
        },
        warp_first, n, exchange, lane);
  };
  run_tiles<Policy::lagged>(tiles, states.tickets, begin, finish);
}

/// Whether long segmented scans of T run lagged: not when the pair needs a fenced tile word: twice
/// the tiles, each look-back read fenced, made int32 -> int64 scans 1.26x slower (H100, 2^26,
/// 570-580 us against 451-455) before their pairs fitted one 16-byte word.
template <class T, class Pair>
inline constexpr bool takes_lagged_segments_v = lagged_scan_avail_v<T> && tile_word_kind_v<Pair> != TileWordKind::split;

/// The tile state of a segmented scan of n elements of T (as the plain scan's: a ticket slot and
/// one tile word of the pair per tile, for the smallest tiles of the kernels it may take).
template <class T, class Pair>
constexpr TileStateNeed segmented_scan_tile_state(std::int64_t n) {
  // Room for the look-ahead kernel's tiles too (lookahead_segmented_scan_avail_v).
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8)
    return scan_tile_state_for<Pair, segmented_scan_policy<T>, lagged_scan_policy<T>, LookaheadShape<T>>(n);
  else if constexpr (takes_lagged_segments_v<T, Pair>)
    return scan_tile_state_for<Pair, segmented_scan_policy<T>, lagged_scan_policy<T>>(n);
  else
    return scan_tile_state_for<Pair, segmented_scan_policy<T>>(n);
}

/// Whether a segmented scan of n elements of in into out with `Heads` takes the look-ahead kernel
/// on `space`'s device: long scans of 4- and 8-byte types with a commutative op, on sm_90, between
/// Views that move in vectors (lookahead_segmented_scan.cuh).
template <bool Exclusive, class Pair, class PairOp, class Heads, class Op, class T, class In>
bool takes_lookahead_segments(const char* function, const Kokkos::Cuda& space, const Input<In>& in,
                              const Output<T>& out, std::int64_t n) {
  if constexpr (lookahead_segmented_scan_avail_v<T, In, Op>) {
    return takes_lookahead_scan<T>(n, cached_sm_count(function, space)) &&
           scan_moves_vectors<T, segmented_scan_policy<T>>(in, out) &&
           lookahead_segmented_scan_compiled<T, Pair, PairOp, Op, Heads, Exclusive>(space.cuda_device());
  } else {
    (void)function, (void)space, (void)in, (void)out, (void)n;
    return false;
  }
}

/// Launches lookahead_segmented_scan_kernel on `space`'s stream, where takes_lookahead_segments
/// said so. `tile_state` holds segmented_scan_tile_state<T, Pair>(n).
template <bool Exclusive, class Pair, class PairOp, class T, class In, class Heads, class Op>
void lookahead_segmented_scan(const char* function, const Kokkos::Cuda& space, const Input<In>& in,
                              const Output<T>& out, const Heads& heads, std::int64_t n, const T& init, const Op& op,
                              TileState tile_state) {
  if constexpr (lookahead_segmented_scan_avail_v<T, In, Op>) {
    if ((n + LookaheadShape<T>::tile_size - 1) / LookaheadShape<T>::tile_size > std::int64_t(0x7fffffff))
      throw_invalid_argument(function, "a segmented scan of " + std::to_string(n) +
                                           " elements needs more than 2^31 tiles on the CUDA path");
    const ToolsKernel announce("kprim::cuda::lookahead_segmented_scan_kernel", space);
    check_launch(function,
                 int(launch_lookahead_segmented_scan<Exclusive, Pair, PairOp>(
                     space.cuda_stream(), space.cuda_device(), in.data, out.data, heads, n, init, op, tile_state,
                     cached_sm_count(function, space))),
                 "segmented scan kernel launch");
  } else {
    (void)function, (void)space, (void)in, (void)out, (void)heads, (void)n, (void)init, (void)op, (void)tile_state;
  }
}

/// Launches segmented_scan_kernel on `space`'s stream (n > 0): lagged when the plain scan of T
/// would be (takes_lagged_scan, tiles moved in vectors) and the pair allows it
/// (takes_lagged_segments_v); the look-ahead kernel where takes_lookahead_segments says so.
/// `tile_state` holds segmented_scan_tile_state<T, Pair>(n).
template <bool Exclusive, class Pair, class PairOp, class T, class In, class Heads, class Op>
void segmented_scan(const char* function, const Kokkos::Cuda& space, const Input<In>& in, const Output<T>& out,
                    const Heads& heads, std::int64_t n, const T& init, const Op& op, TileState tile_state) {
  const int sm_count = cached_sm_count(function, space);
  const cudaStream_t stream = space.cuda_stream();
  const auto run = [&]<class Policy, bool Vectors>(const char* kernel_name) {
    const std::int64_t tiles = scan_tiles<Policy>(n);
    if (tiles > std::int64_t(0x7fffffff))
      throw_invalid_argument(function, "a segmented scan of " + std::to_string(n) +
                                           " elements needs more than 2^31 tiles on the CUDA path");
    const ToolsKernel announce(kernel_name, space);
    std::int64_t grid = tiles;
    if constexpr (Policy::lagged) grid = std::min(tiles, std::int64_t(sm_count) * Policy::min_blocks_per_sm);
    const auto kernel = segmented_scan_kernel<T, Pair, PairOp, Op, Policy, Input<In>, Heads, Exclusive, Vectors, Vectors>;
    constexpr int exchange_bytes = scan_dynamic_bytes<T, Policy>;
    if constexpr (exchange_bytes > 48 * 1024)
      check_launch(function, int(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, exchange_bytes)),
                   "segmented scan kernel shared memory");
    kernel<<<unsigned(grid), Policy::block_size, exchange_bytes, stream>>>(in, out, heads, n, tiles, init, op,
                                                                         TileStates<Pair>(tile_state, tiles));
    check_launch(function, int(cudaGetLastError()), "segmented scan kernel launch");
  };
  using policy = segmented_scan_policy<T>;
  if (takes_lookahead_segments<Exclusive, Pair, PairOp, Heads, Op>(function, space, in, out, n))
    return lookahead_segmented_scan<Exclusive, Pair, PairOp>(function, space, in, out, heads, n, init, op, tile_state);
  if constexpr (vectorizable_v<In> && policy::items % vector_width_v<In> == 0) {
    if (scan_moves_vectors<T, policy>(in, out)) {
      if constexpr (takes_lagged_segments_v<T, Pair>) {
        using lagged = lagged_scan_policy<T>;
        if (takes_lagged_scan<T>(n, sm_count) && scan_moves_vectors<T, lagged>(in, out))
          return run.template operator()<lagged, true>("kprim::cuda::lagged_segmented_scan_kernel");
      }
      return run.template operator()<policy, true>("kprim::cuda::segmented_scan_kernel");
    }
  }
  run.template operator()<policy, false>("kprim::cuda::segmented_scan_kernel");
}

}  // namespace kprim::impl::cuda

#endif
