#pragma once
// Block layer, hand-written CUDA: a reduce and a scan across all threads of a 1-D block built
// from the warp layer: each warp reduces/scans with shuffles, one partial per warp goes to
// shared memory, then every thread folds the (few) warp partials it needs. One barrier.
// Accumulators shuffles cannot move (over 32 bytes, or not trivially copyable) take one shared
// slot per thread instead, and lane 0 of each warp folds its warp's slots in order (CUB's
// WarpReduceSmem / BlockScan raking fallbacks play the same role).

#include <kprim/impl/cuda/warp.cuh>

namespace kprim::impl::cuda {

/// Shared-memory room for Count values of T, left uninitialized: __shared__ variables cannot
/// have constructors, and accumulators such as Kokkos::complex do.
template <class T, int Count>
struct Slots {
  alignas(alignof(T) > 16 ? alignof(T) : 16) unsigned char bytes[sizeof(T) * Count];
  __device__ __forceinline__ T& operator[](int i) { return reinterpret_cast<T*>(bytes)[i]; }
  __device__ __forceinline__ T* data() { return reinterpret_cast<T*>(bytes); }
};

/// Shared memory a block of BlockSize threads needs for block_reduce / block_exclusive_scan.
template <class T, int BlockSize>
struct BlockStorage {
  static_assert(BlockSize % warp_size == 0, "kprim: CUDA block sizes are whole warps");
  static constexpr int warps = BlockSize / warp_size;
  Slots<T, warps> warp_totals;
  Slots<T, shuffles_v<T> ? 1 : BlockSize> lanes;  // the shared-memory warp steps
};

namespace detail {
/// Warp step of the shared-memory fallback: lane 0 gets op over its warp's 32 values in order.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T warp_fold_in_shared(T value, const Op& op, BlockStorage<T, BlockSize>& storage) {
  const int warp_first = int(threadIdx.x) & ~(warp_size - 1);
  storage.lanes[threadIdx.x] = value;
  __syncwarp();
  if (lane_id() == 0)
    for (int i = 1; i < warp_size; ++i) value = op(value, storage.lanes[warp_first + i]);
  __syncwarp();
  return value;
}
}  // namespace detail

/// op over every thread's `value`; every thread gets the total. Ends with the block synchronised
/// once; the caller must __syncthreads() before reusing `storage`.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T block_reduce(T value, const Op& op, BlockStorage<T, BlockSize>& storage) {
  const int warp = threadIdx.x / warp_size;
  if constexpr (shuffles_v<T>) value = warp_reduce(value, op);
  else value = detail::warp_fold_in_shared<BlockSize>(value, op, storage);
  if (lane_id() == 0) storage.warp_totals[warp] = value;
  __syncthreads();
  T total = storage.warp_totals[0];
#pragma unroll
  for (int w = 1; w < BlockSize / warp_size; ++w) total = op(total, storage.warp_totals[w]);
  return total;
}

/// Exclusive scan across the block: thread t gets op(v_0, ..., v_{t-1}) (identity for t = 0)
/// and `aggregate` gets op over all threads. One barrier (two for the shared-memory fallback);
/// reuse of `storage` needs another.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T block_exclusive_scan(T value, const Op& op, const T& identity, T& aggregate,
                                                  BlockStorage<T, BlockSize>& storage) {
  const int warp = threadIdx.x / warp_size;
  T in_warp;
  if constexpr (shuffles_v<T>) {
    T warp_total;
    in_warp = warp_exclusive_scan(value, op, identity, warp_total);
    if (lane_id() == 0) storage.warp_totals[warp] = warp_total;
  } else {
    // Lane 0 scans its warp's slots in order and writes each lane's exclusive prefix back.
    const int warp_first = int(threadIdx.x) & ~(warp_size - 1);
    storage.lanes[threadIdx.x] = value;
    __syncwarp();
    if (lane_id() == 0) {
      T running = identity;
      for (int i = 0; i < warp_size; ++i) {
        const T next = op(running, storage.lanes[warp_first + i]);
        storage.lanes[warp_first + i] = running;
        running = next;
      }
      storage.warp_totals[warp] = running;
    }
    __syncwarp();
    in_warp = storage.lanes[threadIdx.x];
  }
  __syncthreads();
  T warp_prefix = identity;
  aggregate = identity;
#pragma unroll
  for (int w = 0; w < BlockSize / warp_size; ++w) {
    if (w == warp) warp_prefix = aggregate;
    aggregate = op(aggregate, storage.warp_totals[w]);
  }
  return warp == 0 ? in_warp : op(warp_prefix, in_warp);
}

}  // namespace kprim::impl::cuda
