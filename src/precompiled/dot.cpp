// The dots libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/dot.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_DEFINE_DOT(...) KPRIM_IMPL_DOT_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DEFINE_HOST(Space) KPRIM_IMPL_HOST_DOTS(KPRIM_IMPL_DEFINE_DOT, Space)
KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST)
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_CUDA_DOTS(KPRIM_IMPL_DEFINE_DOT)
#endif

}  // namespace kprim::impl
