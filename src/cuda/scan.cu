// Hand-written CUDA single-pass scan: host launcher and explicit instantiations for every
// (type, op) that kprim::impl::cuda::has_cuda_path_v accepts.

#include <kprim/impl/cuda/scan.cuh>

#include "common.hpp"

#include <algorithm>

namespace kprim::impl::cuda {

namespace {
std::int64_t scan_tiles(std::int64_t n, std::size_t value_size) {
  const std::int64_t tile = std::int64_t(scan_block_size) * (value_size == 4 ? 16 : 8);
  return std::max<std::int64_t>(1, (n + tile - 1) / tile);  // n = 0 still writes the total
}
}  // namespace

std::size_t scan_temp_bytes(std::int64_t n, std::size_t value_size) {
  const std::size_t tiles = std::size_t(scan_tiles(n, value_size));
  if (tiles == 1) return 0;
  return 16 + tiles * (value_size == 4 ? 8 : 16);  // tile counter | one status word per tile
}

template <class T, class Op>
void scan(const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op,
          T* total, void* temp) {
  static_assert(scan_tile_size<T> == std::int64_t(scan_block_size) * (sizeof(T) == 4 ? 16 : 8));
  const std::int64_t tiles = scan_tiles(n, sizeof(T));
  if (tiles > std::int64_t(0x7fffffff))
    throw std::runtime_error("kprim (CUDA path): scan of more than 2^31 tiles");
  const cudaStream_t stream = space.cuda_stream();
  TileWord<T>* words = nullptr;
  unsigned* counter = nullptr;
  if (tiles > 1) {
    auto* bytes = static_cast<unsigned char*>(temp);
    counter = reinterpret_cast<unsigned*>(bytes);
    words = reinterpret_cast<TileWord<T>*>(bytes + 16);
    check(cudaMemsetAsync(bytes, 0, scan_temp_bytes(n, sizeof(T)), stream), "cudaMemsetAsync (scan tile states)");
  }
  const bool vectorized = in.stride == 1 && out.stride == 1 && is_aligned16(in.data) && is_aligned16(out.data);
  if (vectorized)
    scan_kernel<T, Op, true, scan_min_blocks_per_sm><<<unsigned(tiles), scan_block_size, 0, stream>>>(
        in, out, n, exclusive, seed, op, total, words, counter);
  else
    scan_kernel<T, Op, false, scan_min_blocks_per_sm><<<unsigned(tiles), scan_block_size, 0, stream>>>(
        in, out, n, exclusive, seed, op, total, words, counter);
  check(cudaGetLastError(), "scan kernel launch");
}

#define KPRIM_INSTANTIATE_SCAN(T, Op) \
  template void scan<T, Op>(const Kokkos::Cuda&, Input<T>, Output<T>, std::int64_t, bool, T, Op, T*, void*);
KPRIM_CUDA_FOR_EACH_TYPE_AND_OP(KPRIM_INSTANTIATE_SCAN)

}  // namespace kprim::impl::cuda
