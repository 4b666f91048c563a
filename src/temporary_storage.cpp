// The per-space code every call shares (temporaries, zeroing), compiled once here and declared
// `extern template` in impl/device/temporary_storage.hpp, so call sites do not compile it.
#include <kprim/impl/device/temporary_storage.hpp>

namespace kprim::impl {

#define KPRIM_IMPL_PRECOMPILE_SPACE(Space)  \
  template class TemporaryStorage<Space>; \
  template void zero_bytes<Space>(const Space&, unsigned char*, std::size_t);
#ifdef KOKKOS_ENABLE_SERIAL
KPRIM_IMPL_PRECOMPILE_SPACE(Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KPRIM_IMPL_PRECOMPILE_SPACE(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_THREADS
KPRIM_IMPL_PRECOMPILE_SPACE(Kokkos::Threads)
#endif
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_PRECOMPILE_SPACE(Kokkos::Cuda)
#ifdef KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
template class TemporaryStorage<Kokkos::Cuda, PinnedHostSpace>;
#endif
#endif

}  // namespace kprim::impl
