// The scans with a total (a rank-0 View in the space's memory) libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/scan.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_HOST_TOTAL_KIND KPRIM_IMPL_HOST_TOTAL
#define KPRIM_IMPL_CUDA_TOTAL_KIND KPRIM_IMPL_CUDA_TOTAL
KPRIM_IMPL_DEFINE_SCANS()

}  // namespace kprim::impl
