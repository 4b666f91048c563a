// The reduces of strided Views libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/reduce.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_DEFINE_REDUCE(...) KPRIM_IMPL_REDUCE_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DEFINE_HOST(Space) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Space, Kokkos::LayoutStride, Kokkos::HostSpace)
KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST)
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Kokkos::Cuda, Kokkos::LayoutStride, PinnedHostSpace)
KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Kokkos::Cuda, Kokkos::LayoutStride, Kokkos::CudaSpace)
#endif

}  // namespace kprim::impl
