#pragma once
// Refuses toolchains known to corrupt kernel arguments, so kprim never computes on garbage.

#include <Kokkos_Core.hpp>

// nvcc >= 12.9 lays out [[no_unique_address]] members differently in host and device code, so a
// View captured by a kernel functor arrives shifted (seen on an H200 with CUDA 13.0 and Kokkos
// 4.6.99: every TeamPolicy kernel read its View extents and data from the wrong bytes). Kokkos'
// mdspan stopped using the attribute under such nvcc in kokkos/kokkos#8615 (kokkos/mdspan#435).
#if defined(__NVCC__) && defined(__CUDACC_VER_MAJOR__) && !defined(KOKKOS_ENABLE_IMPL_VIEW_LEGACY) && \
    defined(MDSPAN_IMPL_USE_ATTRIBUTE_NO_UNIQUE_ADDRESS) &&                                           \
    !defined(MDSPAN_IMPL_USE_FAKE_ATTRIBUTE_NO_UNIQUE_ADDRESS) && !defined(KPRIM_ALLOW_NVCC_NO_UNIQUE_ADDRESS)
#if (__CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__) >= 1209 && MDSPAN_IMPL_USE_ATTRIBUTE_NO_UNIQUE_ADDRESS
#error "kprim: this Kokkos uses [[no_unique_address]] in mdspan under nvcc >= 12.9, which corrupts View kernel \
arguments; use a Kokkos with kokkos/kokkos#8615 (or configure Kokkos with Kokkos_ENABLE_IMPL_VIEW_LEGACY=ON)"
#endif
#endif
