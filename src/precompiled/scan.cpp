// The scans without a total libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/scan.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_HOST_TOTAL_KIND KPRIM_IMPL_NO_TOTAL
#define KPRIM_IMPL_CUDA_TOTAL_KIND KPRIM_IMPL_NO_TOTAL
KPRIM_IMPL_DEFINE_SCANS()

}  // namespace kprim::impl
