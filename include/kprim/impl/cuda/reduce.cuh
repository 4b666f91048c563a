#pragma once
// Device layer, hand-written CUDA: reduce and dot in one launch.
//
// Every thread walks the input grid-stride in 16-byte vectors, four vectors in flight per step
// (neighbouring threads read neighbouring vectors: every load instruction is fully coalesced),
// keeping one accumulator per vector lane so the adds do not form one serial chain. A scalar
// head (up to the first 16-byte boundary) and tail are folded by the same threads. Each block
// reduces its threads' values (warp shuffles, one partial per warp in shared memory) into
// partials[block]; the last block to finish (an atomic ticket after a fence) folds the
// partials and writes the result, so there is no second kernel. A single-block grid writes
// the result directly and needs no ticket.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/ops.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

// Tuning (H200, 2026-11-22, see perf_tests/results): 256 threads, 8 blocks per SM (full
// occupancy: 2048 threads), four 16-byte loads in flight per thread.
inline constexpr int reduce_block_size = 256;
inline constexpr int reduce_blocks_per_sm = 8;
inline constexpr int reduce_vectors_in_flight = 4;

/// A contiguous or strided input of T, or the products of two inputs (dot).
template <class T>
struct ValueSource {
  Input<T> x;
  bool vectorized;       // stride 1 and aligned after the head
  std::int64_t head;     // scalar elements before the first 16-byte boundary
  __device__ T scalar(std::int64_t i) const { return x.data[i * x.stride]; }
  __device__ Vector16<T> vector(std::int64_t v) const { return load_vector(x.data + head + v * Vector16<T>::size); }
};

template <class T>
struct ProductSource {
  Input<T> x, y;
  bool vectorized;  // both contiguous with the same misalignment
  std::int64_t head;
  __device__ T scalar(std::int64_t i) const { return x.data[i * x.stride] * y.data[i * y.stride]; }
  __device__ Vector16<T> vector(std::int64_t v) const {
    Vector16<T> a = load_vector(x.data + head + v * Vector16<T>::size);
    const Vector16<T> b = load_vector(y.data + head + v * Vector16<T>::size);
#pragma unroll
    for (int k = 0; k < Vector16<T>::size; ++k) a.lane[k] *= b.lane[k];
    return a;
  }
};

template <class T, class Op, class Source>
__global__ void __launch_bounds__(reduce_block_size)
    reduce_kernel(Source source, std::int64_t n, Op op, T* partials, unsigned* ticket, T* result) {
  constexpr int width = Vector16<T>::size;
  __shared__ BlockStorage<T, reduce_block_size> storage;
  __shared__ bool is_last_block;
  const T identity = identity_of<T>(op);
  const std::int64_t thread = std::int64_t(blockIdx.x) * reduce_block_size + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * reduce_block_size;

  T acc[width];
#pragma unroll
  for (int k = 0; k < width; ++k) acc[k] = identity;

  std::int64_t scalar_begin = 0, scalar_end = n;  // the part not covered by vectors
  if (source.vectorized) {
    const std::int64_t vectors = (n - source.head) / width;
    std::int64_t v = thread;
    for (; v + (reduce_vectors_in_flight - 1) * threads < vectors; v += reduce_vectors_in_flight * threads) {
      Vector16<T> loaded[reduce_vectors_in_flight];
#pragma unroll
      for (int j = 0; j < reduce_vectors_in_flight; ++j) loaded[j] = source.vector(v + j * threads);
#pragma unroll
      for (int j = 0; j < reduce_vectors_in_flight; ++j)
#pragma unroll
        for (int k = 0; k < width; ++k) acc[k] = op(acc[k], loaded[j].lane[k]);
    }
    for (; v < vectors; v += threads) {
      const Vector16<T> loaded = source.vector(v);
#pragma unroll
      for (int k = 0; k < width; ++k) acc[k] = op(acc[k], loaded.lane[k]);
    }
    scalar_end = source.head;  // head [0, head) and tail [head + vectors * width, n)
    const std::int64_t tail_begin = source.head + vectors * width;
    for (std::int64_t i = tail_begin + thread; i < n; i += threads) acc[0] = op(acc[0], source.scalar(i));
  }
  for (std::int64_t i = scalar_begin + thread; i < scalar_end; i += threads) acc[1 % width] = op(acc[1 % width], source.scalar(i));

  T value = acc[0];
#pragma unroll
  for (int k = 1; k < width; ++k) value = op(value, acc[k]);
  value = block_reduce<reduce_block_size>(value, op, storage);

  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *result = value;
    return;
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = value;
    __threadfence();  // the partial is visible device-wide before the ticket says so
    // wraps to 0 after the last block, leaving the ticket ready for the next call
    is_last_block = atomicInc(ticket, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;
  __threadfence();
  T total = identity;
  for (int b = threadIdx.x; b < int(gridDim.x); b += reduce_block_size) total = op(total, __ldcg(partials + b));
  total = block_reduce<reduce_block_size>(total, op, storage);
  if (threadIdx.x == 0) *result = total;
}

/// Blocks a reduce of n elements launches: one per 4 vectors per thread, at most a full wave.
inline int reduce_grid_size(int sm_count, std::int64_t n, std::size_t value_size) {
  const std::int64_t per_block = std::int64_t(reduce_block_size) * reduce_vectors_in_flight * (16 / value_size);
  const std::int64_t wanted = (n + per_block - 1) / per_block;
  const std::int64_t most = std::int64_t(sm_count) * reduce_blocks_per_sm;
  return int(wanted < 1 ? 1 : (wanted > most ? most : wanted));
}

}  // namespace kprim::impl::cuda
