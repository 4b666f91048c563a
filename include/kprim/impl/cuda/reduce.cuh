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

/// The vectors a thread of the reduce reads: begin, begin + step, ... below end.
struct VectorRange {
  std::int64_t begin, step, end;
};

/// A tuning of the reduce kernel: threads per block, blocks per SM in the (single-wave) grid, and
/// 16-byte vectors each thread loads per step. The vectors are dealt out grid-stride (neighbouring
/// blocks read neighbouring vectors); a policy may deal them otherwise with its own vector_range
/// (the tuning tool's one-chunk-per-block candidate).
template <int BlockSize, int BlocksPerSM, int VectorsInFlight>
struct ReducePolicy {
  static constexpr int block_size = BlockSize;
  static constexpr int blocks_per_sm = BlocksPerSM;
  static constexpr int vectors_in_flight = VectorsInFlight;
  __device__ static VectorRange vector_range(std::int64_t vectors) {
    return {std::int64_t(blockIdx.x) * BlockSize + threadIdx.x, std::int64_t(gridDim.x) * BlockSize, vectors};
  }
};

// Default policies: reduce 512 threads x 4 blocks per SM, 4 vectors in flight; dot 256 x 4, 8
// vectors (two arrays). H200, kprim-reduce-tuning, 2026-11-23: CUB time / kprim time 1.00-1.02
// (reduce) and 1.00-1.02 (dot) at 2^28; the candidates: perf_tests/results/README.md ("Tuning
// history of the CUDA kernels").
// Each source below names its default policy.

/// A contiguous or strided input of In read as accumulators T (the conversion happens on load,
/// so int32 data sums in int64 registers and float data in double ones), or the products of two
/// such inputs (dot). `width` elements come per 16-byte vector of In (1 when In cannot be loaded
/// that way: its size does not divide 16).
template <class In, class T>
struct ValueSource {
  using default_policy = ReducePolicy<512, 4, 4>;
  static constexpr int width = vector_width_v<In>;
  static constexpr bool can_vectorize = vectorizable_v<In>;  // else only the scalar loop is compiled
  Input<In> x;
  bool vectorized;       // stride 1 and aligned after the head
  std::int64_t head;     // scalar elements before the first 16-byte boundary
  __device__ T scalar(std::int64_t i) const { return T(x.data[i * x.stride]); }
  __device__ Lanes<T, width> vector(std::int64_t v) const {
    return converted<T>(load_vector(x.data + head + v * width));
  }
};

template <class In, class T>
struct ProductSource {
  using default_policy = ReducePolicy<256, 4, 8>;
  static constexpr int width = vector_width_v<In>;
  static constexpr bool can_vectorize = vectorizable_v<In>;
  Input<In> x, y;
  bool vectorized;  // both contiguous with the same misalignment
  std::int64_t head;
  __device__ T scalar(std::int64_t i) const { return T(x.data[i * x.stride]) * T(y.data[i * y.stride]); }
  __device__ Lanes<T, width> vector(std::int64_t v) const {
    Lanes<T, width> a = converted<T>(load_vector(x.data + head + v * width));
    const Lanes<T, width> b = converted<T>(load_vector(y.data + head + v * width));
#pragma unroll
    for (int k = 0; k < width; ++k) a.lane[k] = a.lane[k] * b.lane[k];
    return a;
  }
};

/// Any device-callable functor, element i = T(f(i)): a transform reduce's lambda. Nothing to
/// vectorize, so each thread keeps `scalar_batch` reads in flight per step instead.
template <class F, class T>
struct FunctorSource {
  using default_policy = ReducePolicy<512, 4, 4>;
  static constexpr int width = 1;
  static constexpr bool can_vectorize = false;
  static constexpr int scalar_batch = 8;
  F f;
  bool vectorized = false;
  std::int64_t head = 0;
  __device__ T scalar(std::int64_t i) const { return T(f(i)); }
  __device__ Lanes<T, 1> vector(std::int64_t) const { return {}; }
};

template <class Source>
inline constexpr int scalar_batch_v = [] {
  if constexpr (requires { Source::scalar_batch; }) return int(Source::scalar_batch);
  else return 1;
}();

// The grid is one wave of blocks_per_sm blocks per SM (reduce_grid_size), so the register cap
// must let them all be resident: without it ptxas gave the float -> double sum 34 registers, 3 of 4
// blocks of 512 fit and the grid ran as two waves (H200, 2026-11-28: 0.93x CUB at 2^28, 1.01x with
// the cap; perf_tests/results/README.md, "The float -> double reduce in one wave").
template <class T, class Op, class Source, class Policy = typename Source::default_policy>
__global__ void __launch_bounds__(Policy::block_size, Policy::blocks_per_sm)
    reduce_kernel(Source source, std::int64_t n, Op op, T* partials, unsigned* ticket, T* result) {
  constexpr int width = Source::width;
  constexpr int reduce_block_size = Policy::block_size;
  constexpr int reduce_vectors_in_flight = Policy::vectors_in_flight;
  __shared__ BlockStorage<T, reduce_block_size> storage;
  __shared__ bool is_last_block;
  const T identity = identity_of<T>(op);
  const std::int64_t thread = std::int64_t(blockIdx.x) * reduce_block_size + threadIdx.x;
  const std::int64_t threads = std::int64_t(gridDim.x) * reduce_block_size;

  T acc[width];
#pragma unroll
  for (int k = 0; k < width; ++k) acc[k] = identity;

  std::int64_t scalar_begin = 0, scalar_end = n;  // the part not covered by vectors
  if constexpr (Source::can_vectorize) {
  if (source.vectorized) {
    const std::int64_t vectors = (n - source.head) / width;
    const VectorRange range = Policy::vector_range(vectors);
    std::int64_t v = range.begin;
    const std::int64_t step = range.step, end = range.end;
    for (; v + (reduce_vectors_in_flight - 1) * step < end; v += reduce_vectors_in_flight * step) {
      Lanes<T, width> loaded[reduce_vectors_in_flight];
#pragma unroll
      for (int j = 0; j < reduce_vectors_in_flight; ++j) loaded[j] = source.vector(v + j * step);
#pragma unroll
      for (int j = 0; j < reduce_vectors_in_flight; ++j)
#pragma unroll
        for (int k = 0; k < width; ++k) acc[k] = op(acc[k], loaded[j].lane[k]);
    }
    for (; v < end; v += step) {
      const Lanes<T, width> loaded = source.vector(v);
#pragma unroll
      for (int k = 0; k < width; ++k) acc[k] = op(acc[k], loaded.lane[k]);
    }
    scalar_end = source.head;  // head [0, head) and tail [head + vectors * width, n)
    const std::int64_t tail_begin = source.head + vectors * width;
    for (std::int64_t i = tail_begin + thread; i < n; i += threads) acc[0] = op(acc[0], source.scalar(i));
  }
  }
  std::int64_t i = scalar_begin + thread;
  if constexpr (scalar_batch_v<Source> > 1) {
    constexpr int batch = scalar_batch_v<Source>;
    for (; i + (batch - 1) * threads < scalar_end; i += batch * threads) {
      T loaded[batch];
#pragma unroll
      for (int j = 0; j < batch; ++j) loaded[j] = source.scalar(i + j * threads);
#pragma unroll
      for (int j = 0; j < batch; ++j) acc[0] = op(acc[0], loaded[j]);
    }
  }
  for (; i < scalar_end; i += threads) acc[1 % width] = op(acc[1 % width], source.scalar(i));

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
  for (int b = threadIdx.x; b < int(gridDim.x); b += reduce_block_size) total = op(total, load_from_l2(partials + b));
  total = block_reduce<reduce_block_size>(total, op, storage);
  if (threadIdx.x == 0) *result = total;
}

/// Blocks a reduce of n elements of `input_size` bytes launches: one per `vectors_in_flight`
/// vectors per thread, at most a full wave.
template <class Policy>
inline int reduce_grid_size(int sm_count, std::int64_t n, std::size_t input_size) {
  const std::int64_t per_element = input_size <= 16 && 16 % input_size == 0 ? std::int64_t(16 / input_size) : 1;
  const std::int64_t per_block = std::int64_t(Policy::block_size) * Policy::vectors_in_flight * per_element;
  const std::int64_t wanted = (n + per_block - 1) / per_block;
  const std::int64_t most = std::int64_t(sm_count) * Policy::blocks_per_sm;
  return int(wanted < 1 ? 1 : (wanted > most ? most : wanted));
}

}  // namespace kprim::impl::cuda
