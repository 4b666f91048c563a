// The scans without a total libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/scan.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_DEFINE_SCAN(...) KPRIM_IMPL_SCAN_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DEFINE_HOST(Space) KPRIM_IMPL_PRECOMPILED_SCANS(KPRIM_IMPL_DEFINE_SCAN, Space, KPRIM_IMPL_NO_TOTAL)
KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST)
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_PRECOMPILED_SCANS(KPRIM_IMPL_DEFINE_SCAN, Kokkos::Cuda, KPRIM_IMPL_NO_TOTAL)
#endif

}  // namespace kprim::impl
