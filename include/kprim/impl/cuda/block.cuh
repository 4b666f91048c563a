#pragma once
// Block layer, hand-written CUDA: a reduce and a scan across all threads of a 1-D block built
// from the warp layer: each warp reduces/scans with shuffles, one partial per warp goes to
// shared memory, then every thread folds the (few) warp partials it needs. One barrier.

#include <kprim/impl/cuda/warp.cuh>

namespace kprim::impl::cuda {

/// Shared memory a block of BlockSize threads needs for block_reduce / block_exclusive_scan.
template <class T, int BlockSize>
struct BlockStorage {
  static_assert(BlockSize % warp_size == 0, "kprim: CUDA block sizes are whole warps");
  static constexpr int warps = BlockSize / warp_size;
  T warp_totals[warps];
};

/// op over every thread's `value`; every thread gets the total. Ends with the block synchronised
/// once; the caller must __syncthreads() before reusing `storage`.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T block_reduce(T value, const Op& op, BlockStorage<T, BlockSize>& storage) {
  const int warp = threadIdx.x / warp_size;
  value = warp_reduce(value, op);
  if (lane_id() == 0) storage.warp_totals[warp] = value;
  __syncthreads();
  T total = storage.warp_totals[0];
#pragma unroll
  for (int w = 1; w < BlockSize / warp_size; ++w) total = op(total, storage.warp_totals[w]);
  return total;
}

/// Exclusive scan across the block: thread t gets op(v_0, ..., v_{t-1}) (identity for t = 0)
/// and `aggregate` gets op over all threads. One barrier; reuse of `storage` needs another.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T block_exclusive_scan(T value, const Op& op, const T& identity, T& aggregate,
                                                  BlockStorage<T, BlockSize>& storage) {
  const int warp = threadIdx.x / warp_size;
  T warp_total;
  const T in_warp = warp_exclusive_scan(value, op, identity, warp_total);
  if (lane_id() == 0) storage.warp_totals[warp] = warp_total;
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
