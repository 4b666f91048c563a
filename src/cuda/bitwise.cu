// Hand-written CUDA Determinism::bitwise reduce, dot and scan: host launchers and explicit
// instantiations for the floating-point types (integers with the built-in ops are exact in any
// order and take the fastest paths).

#include <kprim/impl/cuda/bitwise.cuh>

#include "common.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

namespace kprim::impl::cuda {

namespace {

/// Blocks of `per_block` elements for n elements (n = 0: one block writes the result).
std::int64_t bitwise_blocks(std::int64_t n, std::int64_t per_block) {
  return std::max<std::int64_t>(1, (n + per_block - 1) / per_block);
}

/// A reduce's block counter and tree nodes, per stream, kept zeroed between launches by the
/// kernel itself (atomicInc wraps the counter, readers empty the nodes they read): a memset per
/// call cost ~10% of a 2^24-element reduce on an H100. Grown (and zeroed) when a call needs more.
void* reduce_state_for(cudaStream_t stream, std::size_t bytes) {
  struct State {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  static std::mutex mutex;
  static std::map<cudaStream_t, State> states;
  std::lock_guard<std::mutex> lock(mutex);
  if (states.empty())
    Kokkos::push_finalize_hook([] {
      std::lock_guard<std::mutex> guard(mutex);
      for (auto& [s, state] : states) cudaFree(state.data);
      states.clear();
    });
  State& state = states[stream];
  if (state.bytes < bytes) {
    if (state.data) check(cudaFree(state.data), "cudaFree (bitwise reduce state)");  // waits for its users
    state.data = nullptr;
    state.bytes = 0;  // stays empty if the allocation below fails
    check_allocation(cudaMalloc(&state.data, bytes), bytes, "bitwise reduce state");
    check(cudaMemset(state.data, 0, bytes), "cudaMemset (bitwise reduce state)");
    state.bytes = bytes;
  }
  return state.data;
}

template <class T, class Op, bool Scan, bool Dot>
void launch_bitwise(const Kokkos::Cuda& space, Input<T> x, Input<T> y, Output<T> out, std::int64_t n, bool exclusive,
                    T seed, Op op, T* total, void* temp) {
  const std::int64_t tiles = bitwise_blocks(n, BitwiseShape<T, Scan>::block_elements);
  if (tiles > std::int64_t(0x7fffffff)) throw std::runtime_error("kprim (CUDA path): bitwise pass over more than 2^31 blocks");
  const cudaStream_t stream = space.cuda_stream();
  unsigned* counter = nullptr;
  TileWord<T>* nodes = nullptr;
  if (tiles > 1) {
    unsigned char* bytes = nullptr;
    if constexpr (Scan) {
      bytes = static_cast<unsigned char*>(temp);
      check(cudaMemsetAsync(bytes, 0, bitwise_temp_bytes(n, sizeof(T)), stream), "cudaMemsetAsync (bitwise tree nodes)");
    } else {
      bytes = static_cast<unsigned char*>(reduce_state_for(stream, bitwise_temp_bytes(n, 8)));
    }
    counter = reinterpret_cast<unsigned*>(bytes);
    nodes = reinterpret_cast<TileWord<T>*>(bytes + 16);
  }
  bool vectorized = x.stride == 1 && is_aligned16(x.data);
  if (Dot) vectorized = vectorized && y.stride == 1 && is_aligned16(y.data);
  if (Scan) vectorized = vectorized && out.stride == 1 && is_aligned16(out.data);
  const ToolsKernel announce("kprim::cuda::bitwise_kernel", space);
  if (vectorized)
    bitwise_kernel<T, Op, true, Scan, Dot><<<unsigned(tiles), bitwise_block_size, 0, stream>>>(
        x, y, out, n, tiles, exclusive, seed, op, total, nodes, counter);
  else
    bitwise_kernel<T, Op, false, Scan, Dot><<<unsigned(tiles), bitwise_block_size, 0, stream>>>(
        x, y, out, n, tiles, exclusive, seed, op, total, nodes, counter);
  check(cudaGetLastError(), "bitwise kernel launch");
}

}  // namespace

std::size_t bitwise_temp_bytes(std::int64_t n, std::size_t value_size) {
  const std::int64_t tiles = bitwise_blocks(n, bitwise_tile_size);  // the most blocks of any shape
  if (tiles == 1) return 0;
  return 16 + std::size_t(node_slots(tiles)) * (value_size == 4 ? 8 : 16);  // tile counter | tree nodes
}

template <class T, class Op>
void bitwise_reduce(const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result, void* temp) {
  launch_bitwise<T, Op, false, false>(space, x, {nullptr, 1}, {nullptr, 1}, n, false, T{}, op, result, temp);
}

template <class T>
void bitwise_dot(const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result, void* temp) {
  launch_bitwise<T, Sum, false, true>(space, x, y, {nullptr, 1}, n, false, T{}, Sum{}, result, temp);
}

template <class T, class Op>
void bitwise_scan(const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op,
                  T* total, void* temp) {
  launch_bitwise<T, Op, true, false>(space, in, {nullptr, 1}, out, n, exclusive, seed, op, total, temp);
}

#define KPRIM_INSTANTIATE_BITWISE(T, Op)                                                                         \
  template void bitwise_reduce<T, Op>(const Kokkos::Cuda&, Input<T>, std::int64_t, Op, T*, void*);             \
  template void bitwise_scan<T, Op>(const Kokkos::Cuda&, Input<T>, Output<T>, std::int64_t, bool, T, Op, T*, void*);
#define KPRIM_BITWISE_FOR_EACH_OP(X, T) X(T, ::kprim::Sum) X(T, ::kprim::Prod) X(T, ::kprim::Min) X(T, ::kprim::Max)
KPRIM_BITWISE_FOR_EACH_OP(KPRIM_INSTANTIATE_BITWISE, float)
KPRIM_BITWISE_FOR_EACH_OP(KPRIM_INSTANTIATE_BITWISE, double)
template void bitwise_dot<float>(const Kokkos::Cuda&, Input<float>, Input<float>, std::int64_t, float*, void*);
template void bitwise_dot<double>(const Kokkos::Cuda&, Input<double>, Input<double>, std::int64_t, double*, void*);

}  // namespace kprim::impl::cuda
