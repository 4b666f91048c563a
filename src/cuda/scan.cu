// Hand-written CUDA single-pass scan: the precompiled combinations (api.hpp's
// KPRIM_CUDA_FOR_EACH_PRECOMPILED).

#include <kprim/impl/cuda/launch.cuh>

namespace kprim::impl::cuda {

#define KPRIM_INSTANTIATE_SCAN(In, T, Op) \
  template void scan<In, T, Op>(const char*, const Kokkos::Cuda&, Input<In>, Output<T>, std::int64_t, bool, T, Op, T*, \
                                TileState);
KPRIM_CUDA_FOR_EACH_PRECOMPILED(KPRIM_INSTANTIATE_SCAN)

}  // namespace kprim::impl::cuda
