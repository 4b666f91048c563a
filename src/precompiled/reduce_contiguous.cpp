// The reduces of contiguous Views libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/reduce.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_LAYOUT Kokkos::LayoutRight
KPRIM_IMPL_DEFINE_REDUCES()

}  // namespace kprim::impl
