// Hand-written CUDA Determinism::bitwise reduce, dot and scan: host launchers and explicit
// instantiations for the floating-point types (integers with the built-in ops are exact in any
// order and take the fastest paths).

#include <kprim/impl/cuda/bitwise.cuh>

#include "common.hpp"

#include <algorithm>
#include <string>

namespace kprim::impl::cuda {

namespace {

/// Blocks of `per_block` elements for n elements (n = 0: one block writes the result).
std::int64_t bitwise_blocks(std::int64_t n, std::int64_t per_block) {
  return std::max<std::int64_t>(1, (n + per_block - 1) / per_block);
}

template <class T, class Op, bool Scan, bool Dot>
void launch_bitwise(const char* function, const Kokkos::Cuda& space, Input<T> x, Input<T> y, Output<T> out,
                    std::int64_t n, bool exclusive, T seed, Op op, T* total, void* temp, unsigned epoch) {
  // temp: a scan's tree nodes, in the instance's tile state, flagged with the call's epoch; a
  // reduce's, kept zeroed between calls by the kernel (atomicInc wraps the counter, readers empty
  // the nodes they read: a memset per call cost ~10% of a 2^24-element reduce on an H100) in the
  // instance's TemporaryStorage state, epoch 0.
  const std::int64_t tiles = bitwise_blocks(n, BitwiseShape<T, Scan>::block_elements);
  if (tiles > std::int64_t(0x7fffffff))
    throw_invalid_argument(function, "a bitwise pass over " + std::to_string(n) +
                                         " elements needs more than 2^31 blocks on the CUDA path");
  const cudaStream_t stream = space.cuda_stream();
  unsigned* counter = nullptr;
  TileWord<T>* nodes = nullptr;
  if (tiles > 1) {
    unsigned char* const bytes = static_cast<unsigned char*>(temp);
    counter = reinterpret_cast<unsigned*>(bytes);
    nodes = reinterpret_cast<TileWord<T>*>(bytes + 16);
  }
  bool vectorized = x.stride == 1 && is_aligned16(x.data);
  if (Dot) vectorized = vectorized && y.stride == 1 && is_aligned16(y.data);
  if (Scan) vectorized = vectorized && out.stride == 1 && is_aligned16(out.data);
  const ToolsKernel announce("kprim::cuda::bitwise_kernel", space);
  if (vectorized)
    bitwise_kernel<T, Op, true, Scan, Dot><<<unsigned(tiles), bitwise_block_size, 0, stream>>>(
        x, y, out, n, tiles, exclusive, seed, op, total, nodes, counter, epoch);
  else
    bitwise_kernel<T, Op, false, Scan, Dot><<<unsigned(tiles), bitwise_block_size, 0, stream>>>(
        x, y, out, n, tiles, exclusive, seed, op, total, nodes, counter, epoch);
  check(function, cudaGetLastError(), "bitwise kernel launch");
}

}  // namespace

std::size_t bitwise_reduce_state_bytes(std::int64_t n) { return bitwise_temp_bytes(n, 8); }

std::size_t bitwise_temp_bytes(std::int64_t n, std::size_t value_size) {
  const std::int64_t tiles = bitwise_blocks(n, bitwise_tile_size);  // the most blocks of any shape
  if (tiles == 1) return 0;
  return 16 + std::size_t(node_slots(tiles)) * (value_size == 4 ? 8 : 16);  // tile counter | tree nodes
}

TileStateNeed bitwise_scan_tile_state(std::int64_t n, std::size_t value_size) {
  const std::size_t bytes = bitwise_temp_bytes(n, value_size);
  if (bytes == 0) return {};
  // The nodes are the scan's tile words of T (float: 8 bytes; double: 16), and share their layout key.
  return {bytes, value_size == 4 ? tile_state_need<float>(2).layout : tile_state_need<double>(2).layout};
}

template <class T, class Op>
void bitwise_reduce(const char* function, const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result,
                    void* state) {
  launch_bitwise<T, Op, false, false>(function, space, x, {nullptr, 1}, {nullptr, 1}, n, false, T{}, op, result, state,
                                      0);
}

template <class T>
void bitwise_dot(const char* function, const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result,
                 void* state) {
  launch_bitwise<T, Sum, false, true>(function, space, x, y, {nullptr, 1}, n, false, T{}, Sum{}, result, state, 0);
}

template <class T, class Op>
void bitwise_scan(const char* function, const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n,
                  bool exclusive, T seed, Op op, T* total, TileState tile_state) {
  launch_bitwise<T, Op, true, false>(function, space, in, {nullptr, 1}, out, n, exclusive, seed, op, total,
                                     tile_state.data, tile_state.epoch);
}

#define KPRIM_INSTANTIATE_BITWISE(T, Op)                                                                         \
  template void bitwise_reduce<T, Op>(const char*, const Kokkos::Cuda&, Input<T>, std::int64_t, Op, T*, void*); \
  template void bitwise_scan<T, Op>(const char*, const Kokkos::Cuda&, Input<T>, Output<T>, std::int64_t, bool, T, Op, \
                                    T*, TileState);
#define KPRIM_BITWISE_FOR_EACH_OP(X, T) X(T, ::kprim::Sum) X(T, ::kprim::Prod) X(T, ::kprim::Min) X(T, ::kprim::Max)
KPRIM_BITWISE_FOR_EACH_OP(KPRIM_INSTANTIATE_BITWISE, float)
KPRIM_BITWISE_FOR_EACH_OP(KPRIM_INSTANTIATE_BITWISE, double)
template void bitwise_dot<float>(const char*, const Kokkos::Cuda&, Input<float>, Input<float>, std::int64_t, float*,
                                  void*);
template void bitwise_dot<double>(const char*, const Kokkos::Cuda&, Input<double>, Input<double>, std::int64_t,
                                   double*, void*);

}  // namespace kprim::impl::cuda
