// The dots libkprim holds compiled (impl/device/precompiled.hpp declares them).
#include <kprim/dot.hpp>

namespace kprim::impl {

KPRIM_IMPL_DEFINE_DOTS()

}  // namespace kprim::impl
