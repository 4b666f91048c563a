#pragma once
// Device layer, hand-written CUDA: single-pass scan with decoupled look-back (Merrill &
// Garland, NVR-2016-002).
//
// One block per tile; a block takes its tile index from an atomic counter, so it only ever
// waits on tiles whose blocks are already running (no deadlock whatever the scheduler does).
// Each thread loads its own run of `items` consecutive elements (16-byte vector loads when the
// data is aligned), folds them, and the block scans the thread folds (warp shuffles + one
// partial per warp). The block then publishes its tile aggregate (flag AGGREGATE), and warp 0
// looks back over a window of 32 predecessors at once: each lane reads one predecessor's flag,
// the warp waits until none is EMPTY, takes the nearest INCLUSIVE prefix and the aggregates
// after it, and folds them in tile order with shuffles; without an INCLUSIVE flag in the window
// it moves 32 tiles back. The tile then publishes its inclusive prefix (flag INCLUSIVE) and
// every thread rescans its run from its prefix in registers and stores it. In: n reads, out:
// n writes, plus a few bytes per tile: the 2n traffic of a copy.
//
// A tile's flag and value share one word (TileWord), so publishing and reading are single
// accesses at GPU scope that bypass the non-coherent L1.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/ops.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

// Tuning, measured on an H100 80GB HBM3, 2026-11-22 (kprim-bench, float inclusive scan, 2^28,
// GB/s of ideal traffic; CUB 2386, copy 2922 in the same runs):
//   separate flag/value arrays, acquire polls, direct vector loads ........ 1473
//   one status word per tile (flag + value in one access) ................ 1626
//   + __launch_bounds__(256, 8): 32 registers, 8 blocks per SM ............ 1812
//   + warp-striped loads/stores through shared memory .................... 2120
// 256 threads; 16 items per thread for 4-byte types and 8 for 8-byte ones: 16 KiB of input per tile.
inline constexpr int scan_block_size = 256;
inline constexpr int scan_min_blocks_per_sm = 8;
template <class T>
inline constexpr int scan_items_per_thread = sizeof(T) == 4 ? 16 : 8;
template <class T>
inline constexpr std::int64_t scan_tile_size = std::int64_t(scan_block_size) * scan_items_per_thread<T>;

enum TileFlag : unsigned { tile_empty = 0, tile_aggregate = 1, tile_inclusive = 2 };

/// A tile's status and value in one word, written and read with one instruction, so a reader
/// never sees a flag without its value and needs no fence (one L2 round trip per look-back
/// window instead of flag, fence, value). 4-byte T: value in the low half of a 64-bit word;
/// 8-byte T: a 16-byte pair moved with one vector access (as CUB's tile state does).
template <class T, bool Wide = (sizeof(T) == 8)>
struct TileWord;

template <class T>
struct alignas(8) TileWord<T, false> {
  unsigned long long bits;
  __device__ static void publish(TileWord* word, T value, unsigned flag) {
    unsigned value_bits;
    __builtin_memcpy(&value_bits, &value, 4);
    const unsigned long long bits = (static_cast<unsigned long long>(flag) << 32) | value_bits;
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(word), "l"(bits) : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& flag) {
    unsigned long long bits;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(bits) : "l"(word) : "memory");
    flag = unsigned(bits >> 32);
    const unsigned value_bits = unsigned(bits);
    __builtin_memcpy(&value, &value_bits, 4);
  }
};

template <class T>
struct alignas(16) TileWord<T, true> {
  unsigned long long bits, flag;
  __device__ static void publish(TileWord* word, T value, unsigned flag) {
    unsigned long long value_bits;
    __builtin_memcpy(&value_bits, &value, 8);
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(word), "l"(value_bits),
                 "l"(static_cast<unsigned long long>(flag))
                 : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& flag) {
    unsigned long long value_bits, flag_bits;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(value_bits), "=l"(flag_bits) : "l"(word) : "memory");
    flag = unsigned(flag_bits);
    __builtin_memcpy(&value, &value_bits, 8);
  }
};

/// Shared-memory index with one padding slot every 32 elements (bank-conflict-free transposes).
__host__ __device__ constexpr int exchange_padded(int index) { return index + index / 32; }

/// Called by all 32 lanes of warp 0 of tile `tile` (> 0): op over every earlier tile, in order.
template <class T, class Op>
__device__ T look_back(const TileWord<T>* words, std::int64_t tile, const Op& op, const T& identity) {
  const int lane = lane_id();
  T prefix = identity;
  for (std::int64_t nearest = tile - 1;; nearest -= warp_size) {
    const std::int64_t predecessor = nearest - lane;  // lane 0 looks at the nearest
    unsigned flag = tile_inclusive;
    T value = identity;
    if (predecessor >= 0) TileWord<T>::read(words + predecessor, value, flag);
    while (__any_sync(full_warp_mask, flag == tile_empty))
      if (flag == tile_empty) TileWord<T>::read(words + predecessor, value, flag);
    const unsigned inclusive_lanes = __ballot_sync(full_warp_mask, flag == tile_inclusive);
    const int stop = inclusive_lanes ? __ffs(int(inclusive_lanes)) - 1 : warp_size - 1;
    if (lane > stop) value = identity;
    // Lanes stop .. 0 hold tiles in increasing order: the higher lane is the left operand.
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2)
      value = op(__shfl_down_sync(full_warp_mask, value, offset), value);
    prefix = op(__shfl_sync(full_warp_mask, value, 0), prefix);
    if (inclusive_lanes) return prefix;
  }
}

template <class T, class Op, bool Vectorized, int MinBlocksPerSM>
__global__ void __launch_bounds__(scan_block_size, MinBlocksPerSM)
    scan_kernel(Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op, T* total,
                TileWord<T>* words, unsigned* tile_counter) {
  constexpr int items = scan_items_per_thread<T>;
  constexpr std::int64_t tile_size = scan_tile_size<T>;
  __shared__ BlockStorage<T, scan_block_size> storage;
  __shared__ T exchange_storage[(scan_block_size / warp_size) * exchange_padded(warp_size * items)];
  __shared__ std::int64_t tile_slot;
  __shared__ T prefix_slot;
  const T identity = identity_of<T>(op);

  std::int64_t tile = 0;
  if (gridDim.x > 1) {
    if (threadIdx.x == 0) tile_slot = atomicAdd(tile_counter, 1u);
    __syncthreads();
    tile = tile_slot;
  }
  const std::int64_t first = tile * tile_size + std::int64_t(threadIdx.x) * items;
  const bool full_tile = (tile + 1) * tile_size <= n;

  T values[items];
  // Full aligned tiles move through shared memory warp by warp: each warp load/store
  // instruction covers 512 contiguous bytes (lane l takes vector l, l + 32, ...), then each lane
  // reads its own run of `items` consecutive elements (padded against bank conflicts).
  constexpr int width = Vector16<T>::size;
  constexpr int per_warp = warp_size * items;
  const int lane = lane_id();
  T* const exchange = exchange_storage + (threadIdx.x / warp_size) * exchange_padded(per_warp);
  const std::int64_t warp_first = tile * tile_size + std::int64_t(threadIdx.x / warp_size) * per_warp;
  if (Vectorized && full_tile) {
#pragma unroll
    for (int v = 0; v < items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
      const Vector16<T> loaded = load_vector(in.data + warp_first + index);
#pragma unroll
      for (int k = 0; k < width; ++k) exchange[exchange_padded(index + k)] = loaded.lane[k];
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < items; ++k) values[k] = exchange[exchange_padded(lane * items + k)];
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) values[k] = first + k < n ? in.data[(first + k) * in.stride] : identity;
  }

  T thread_total = values[0];
#pragma unroll
  for (int k = 1; k < items; ++k) thread_total = op(thread_total, values[k]);
  T aggregate;
  const T thread_prefix = block_exclusive_scan<scan_block_size>(thread_total, op, identity, aggregate, storage);

  T tile_prefix = seed;
  if (gridDim.x > 1) {
    if (tile == 0) {
      if (threadIdx.x == 0) TileWord<T>::publish(words, op(seed, aggregate), tile_inclusive);
    } else {
      if (threadIdx.x < warp_size) {
        if (threadIdx.x == 0) TileWord<T>::publish(words + tile, aggregate, tile_aggregate);
        const T exclusive_prefix = look_back(words, tile, op, identity);  // tile 0's prefix holds the seed
        if (threadIdx.x == 0) {
          TileWord<T>::publish(words + tile, op(exclusive_prefix, aggregate), tile_inclusive);
          prefix_slot = exclusive_prefix;
        }
      }
      __syncthreads();
      tile_prefix = prefix_slot;
    }
  }

  T running = op(tile_prefix, thread_prefix);
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (exclusive) {
      const T value = values[k];
      values[k] = running;
      running = op(running, value);
    } else {
      running = op(running, values[k]);
      values[k] = running;
    }
  }

  if (Vectorized && full_tile) {
    __syncwarp();  // every lane has read its run before the exchange is rewritten
#pragma unroll
    for (int k = 0; k < items; ++k) exchange[exchange_padded(lane * items + k)] = values[k];
    __syncwarp();
#pragma unroll
    for (int v = 0; v < items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
      Vector16<T> stored;
#pragma unroll
      for (int k = 0; k < width; ++k) stored.lane[k] = exchange[exchange_padded(index + k)];
      store_vector(out.data + warp_first + index, stored);
    }
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (first + k < n) out.data[(first + k) * out.stride] = values[k];
  }
  if (total != nullptr && tile == gridDim.x - 1 && threadIdx.x == 0) *total = op(tile_prefix, aggregate);
}

}  // namespace kprim::impl::cuda
