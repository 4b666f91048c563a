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
// Flags and values live in separate arrays: values are written first, then the flag with a
// release store; readers load the flag with an acquire load and the value bypassing L1 after it.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/ops.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

// Tuning (H200, 2026-11-22, see perf_tests/results): 256 threads; 16 items per thread for 4-byte
// types and 8 for 8-byte ones, so a tile is 16 KiB of input.
inline constexpr int scan_block_size = 256;
template <class T>
inline constexpr int scan_items_per_thread = sizeof(T) == 4 ? 16 : 8;
template <class T>
inline constexpr std::int64_t scan_tile_size = std::int64_t(scan_block_size) * scan_items_per_thread<T>;

enum TileFlag : unsigned { tile_empty = 0, tile_aggregate = 1, tile_inclusive = 2 };

template <class T>
struct TileStatus {
  unsigned* flags;
  T* aggregates;
  T* inclusives;
};

// The spin reads flags with relaxed loads (L2, no L1 invalidation: ld.acquire would invalidate
// the SM's L1 on every poll, measured 2026-11-22 on an H100 as the scan running at 0.6x CUB with
// 64% of warp stalls at the barrier behind the look-back); one fence after the window is seen
// orders the value loads after the flag loads.
__device__ __forceinline__ unsigned load_relaxed(const unsigned* flag) {
  unsigned value;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

__device__ __forceinline__ void store_release(unsigned* flag, unsigned value) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

/// Called by all 32 lanes of warp 0 of tile `tile` (> 0): op over every earlier tile, in order.
template <class T, class Op>
__device__ T look_back(const TileStatus<T>& status, std::int64_t tile, const Op& op, const T& identity) {
  const int lane = lane_id();
  T prefix = identity;
  for (std::int64_t nearest = tile - 1;; nearest -= warp_size) {
    const std::int64_t predecessor = nearest - lane;  // lane 0 looks at the nearest
    unsigned flag;
    flag = predecessor >= 0 ? load_relaxed(status.flags + predecessor) : unsigned(tile_inclusive);
    while (__any_sync(full_warp_mask, flag == tile_empty)) {
      __nanosleep(20);  // back off a little: polls of every waiting warp share the L2
      if (flag == tile_empty) flag = load_relaxed(status.flags + predecessor);
    }
    __threadfence();
    T value = identity;
    if (predecessor >= 0)
      value = flag == tile_inclusive ? __ldcg(status.inclusives + predecessor) : __ldcg(status.aggregates + predecessor);
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

template <class T, class Op, bool Vectorized>
__global__ void __launch_bounds__(scan_block_size)
    scan_kernel(Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op, T* total,
                TileStatus<T> status, unsigned* tile_counter) {
  constexpr int items = scan_items_per_thread<T>;
  constexpr std::int64_t tile_size = scan_tile_size<T>;
  __shared__ BlockStorage<T, scan_block_size> storage;
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
  if (Vectorized && full_tile) {
#pragma unroll
    for (int v = 0; v < items / Vector16<T>::size; ++v) {
      const Vector16<T> loaded = load_vector(in.data + first + v * Vector16<T>::size);
#pragma unroll
      for (int k = 0; k < Vector16<T>::size; ++k) values[v * Vector16<T>::size + k] = loaded.lane[k];
    }
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
      if (threadIdx.x == 0) {
        status.inclusives[0] = op(seed, aggregate);
        store_release(status.flags, tile_inclusive);
      }
    } else {
      if (threadIdx.x < warp_size) {
        if (threadIdx.x == 0) {
          status.aggregates[tile] = aggregate;
          store_release(status.flags + tile, tile_aggregate);
        }
        const T exclusive_prefix = look_back(status, tile, op, identity);  // tile 0's prefix holds the seed
        if (threadIdx.x == 0) {
          status.inclusives[tile] = op(exclusive_prefix, aggregate);
          store_release(status.flags + tile, tile_inclusive);
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
#pragma unroll
    for (int v = 0; v < items / Vector16<T>::size; ++v) {
      Vector16<T> stored;
#pragma unroll
      for (int k = 0; k < Vector16<T>::size; ++k) stored.lane[k] = values[v * Vector16<T>::size + k];
      store_vector(out.data + first + v * Vector16<T>::size, stored);
    }
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (first + k < n) out.data[(first + k) * out.stride] = values[k];
  }
  if (total != nullptr && tile == gridDim.x - 1 && threadIdx.x == 0) *total = op(tile_prefix, aggregate);
}

}  // namespace kprim::impl::cuda
