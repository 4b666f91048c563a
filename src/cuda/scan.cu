// Hand-written CUDA single-pass scan: host launcher and explicit instantiations for every
// (type, op) that kprim::impl::cuda::has_cuda_path_v accepts.

#include <kprim/impl/cuda/scan.cuh>

#include "common.hpp"

namespace kprim::impl::cuda {

std::size_t scan_temp_bytes(std::int64_t n, std::size_t value_size) {
  return value_size == 4 ? scan_temp_bytes_for<float, default_scan_policy<float>>(n)
                         : scan_temp_bytes_for<double, default_scan_policy<double>>(n);
}

template <class T, class Op>
void scan(const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op,
          T* total, void* temp) {
  using policy = default_scan_policy<T>;
  if (scan_tiles<policy>(n) > std::int64_t(0x7fffffff))
    throw std::runtime_error("kprim (CUDA path): scan of more than 2^31 tiles");
  check(launch_scan<T, Op, policy>(space.cuda_stream(), in, out, n, exclusive, seed, op, total, temp), "scan kernel launch");
}

#define KPRIM_INSTANTIATE_SCAN(T, Op) \
  template void scan<T, Op>(const Kokkos::Cuda&, Input<T>, Output<T>, std::int64_t, bool, T, Op, T*, void*);
KPRIM_CUDA_FOR_EACH_TYPE_AND_OP(KPRIM_INSTANTIATE_SCAN)

}  // namespace kprim::impl::cuda
