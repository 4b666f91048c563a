#pragma once
// Device layer: the `automatic` reduces, dots and scans that libkprim holds compiled
// (src/precompiled/*.cpp), for Kokkos' execution spaces, the arithmetic types and the built-in
// ops over contiguous or strided Views (their canonical() form, dispatch.hpp). A call site of
// these combinations compiles its checks and one call; any other combination (a user op or type,
// a lambda) instantiates the same templates where it is called.

#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

// X(Space, In, Acc, Op, Layout, ResultMemory): one reduce of Views of In into an Acc.
#define KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, In, Acc, Layout, ResultMemory) \
  X(Space, In, Acc, ::kprim::Sum, Layout, ResultMemory)                             \
  X(Space, In, Acc, ::kprim::Prod, Layout, ResultMemory)                            \
  X(Space, In, Acc, ::kprim::Min, Layout, ResultMemory)                             \
  X(Space, In, Acc, ::kprim::Max, Layout, ResultMemory)
#define KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(X, Space, Layout, ResultMemory)                    \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, std::int32_t, std::int32_t, Layout, ResultMemory) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, std::int64_t, std::int64_t, Layout, ResultMemory) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, float, float, Layout, ResultMemory)               \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, double, double, Layout, ResultMemory)             \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, std::int32_t, std::int64_t, Layout, ResultMemory) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_OPS(X, Space, float, double, Layout, ResultMemory)
/// Every precompiled reduce of Space with its result in ResultMemory.
#define KPRIM_IMPL_PRECOMPILED_REDUCES(X, Space, ResultMemory)                     \
  KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(X, Space, Kokkos::LayoutRight, ResultMemory) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(X, Space, Kokkos::LayoutStride, ResultMemory)

// X(Space, In, Acc, Op, Total): one scan, Total(Acc) the type of its total of a contiguous View of In into one of Acc.
#define KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, In, Acc, Total) \
  X(Space, In, Acc, ::kprim::Sum, Total)                          \
  X(Space, In, Acc, ::kprim::Prod, Total)                         \
  X(Space, In, Acc, ::kprim::Min, Total)                          \
  X(Space, In, Acc, ::kprim::Max, Total)
/// Every precompiled scan of Space, Total(Acc) being the type of its total (a macro's name).
#define KPRIM_IMPL_PRECOMPILED_SCANS(X, Space, Total)                          \
  KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, std::int32_t, std::int32_t, Total) \
  KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, std::int64_t, std::int64_t, Total) \
  KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, float, float, Total)               \
  KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, double, double, Total)             \
  KPRIM_IMPL_PRECOMPILED_SCAN_OPS(X, Space, std::int32_t, std::int64_t, Total)

// X(Space, In, Acc, ResultMemory): one dot of two contiguous Views of In in Acc.
#define KPRIM_IMPL_PRECOMPILED_DOTS(X, Space, ResultMemory) \
  X(Space, std::int32_t, std::int32_t, ResultMemory)        \
  X(Space, std::int64_t, std::int64_t, ResultMemory)        \
  X(Space, float, float, ResultMemory)                      \
  X(Space, double, double, ResultMemory)                    \
  X(Space, float, double, ResultMemory)

#define KPRIM_IMPL_INPUT(Space, T, Layout) Kokkos::View<const T*, Layout, Space::memory_space, Kokkos::MemoryUnmanaged>
#define KPRIM_IMPL_OUTPUT(Space, T) Kokkos::View<T*, Kokkos::LayoutRight, Space::memory_space, Kokkos::MemoryUnmanaged>
#define KPRIM_IMPL_SCALAR(T, Memory) Kokkos::View<T, Memory, Kokkos::MemoryUnmanaged>

#define KPRIM_IMPL_REDUCE_INSTANCE(Extern, Space, In, Acc, Op, Layout, ResultMemory)                                   \
  Extern template void run_automatic_reduce<Space, KPRIM_IMPL_INPUT(Space, In, Layout), Op,                             \
                                            KPRIM_IMPL_SCALAR(Acc, ResultMemory)>(                                      \
      const char*, const Space&, std::int64_t, const KPRIM_IMPL_INPUT(Space, In, Layout)&, const Op&,                  \
      const KPRIM_IMPL_SCALAR(Acc, ResultMemory)&, const Tuning&, Determinism);
#define KPRIM_IMPL_DOT_INSTANCE(Extern, Space, In, Acc, ResultMemory)                                                  \
  Extern template void run_automatic_reduce<                                                                           \
      Space, Products<Acc, KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight), KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight), false>, \
      ::kprim::Sum, KPRIM_IMPL_SCALAR(Acc, ResultMemory)>(                                                             \
      const char*, const Space&, std::int64_t,                                                                         \
      const Products<Acc, KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight), KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight), false>&, \
      const ::kprim::Sum&, const KPRIM_IMPL_SCALAR(Acc, ResultMemory)&, const Tuning&, Determinism);
#define KPRIM_IMPL_SCAN_INSTANCE(Extern, Space, In, Acc, Op, Total)                                                     \
  Extern template void run_automatic_scan<Space, KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight),                     \
                                          KPRIM_IMPL_OUTPUT(Space, Acc), Op, Total(Acc)>(                                   \
      const char*, const Space&, const KPRIM_IMPL_INPUT(Space, In, Kokkos::LayoutRight)&,                              \
      const KPRIM_IMPL_OUTPUT(Space, Acc)&, bool, const Acc&, const Op&, const Tuning&, Determinism, const Total(Acc)&);

// The totals a scan may have: none, or a rank-0 View in the space's memory.
#define KPRIM_IMPL_NO_TOTAL(T) NoTotal
#define KPRIM_IMPL_HOST_TOTAL(T) KPRIM_IMPL_SCALAR(T, Kokkos::HostSpace)
#define KPRIM_IMPL_CUDA_TOTAL(T) KPRIM_IMPL_SCALAR(T, Kokkos::CudaSpace)

#define KPRIM_IMPL_DEFINE_REDUCE(...) KPRIM_IMPL_REDUCE_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DEFINE_DOT(...) KPRIM_IMPL_DOT_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DEFINE_SCAN(...) KPRIM_IMPL_SCAN_INSTANCE(, __VA_ARGS__)
#define KPRIM_IMPL_DECLARE_REDUCE(...) KPRIM_IMPL_REDUCE_INSTANCE(extern, __VA_ARGS__)
#define KPRIM_IMPL_DECLARE_DOT(...) KPRIM_IMPL_DOT_INSTANCE(extern, __VA_ARGS__)
#define KPRIM_IMPL_DECLARE_SCAN(...) KPRIM_IMPL_SCAN_INSTANCE(extern, __VA_ARGS__)

/// X(Space) over the enabled execution spaces.
#ifdef KOKKOS_ENABLE_SERIAL
#define KPRIM_IMPL_SERIAL_PRECOMPILED(X) X(Kokkos::Serial)
#else
#define KPRIM_IMPL_SERIAL_PRECOMPILED(X)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define KPRIM_IMPL_OPENMP_PRECOMPILED(X) X(Kokkos::OpenMP)
#else
#define KPRIM_IMPL_OPENMP_PRECOMPILED(X)
#endif
#ifdef KOKKOS_ENABLE_THREADS
#define KPRIM_IMPL_THREADS_PRECOMPILED(X) X(Kokkos::Threads)
#else
#define KPRIM_IMPL_THREADS_PRECOMPILED(X)
#endif
#define KPRIM_IMPL_FOR_EACH_HOST_SPACE(X) \
  KPRIM_IMPL_SERIAL_PRECOMPILED(X) KPRIM_IMPL_OPENMP_PRECOMPILED(X) KPRIM_IMPL_THREADS_PRECOMPILED(X)

#ifdef KOKKOS_ENABLE_CUDA
#define KPRIM_IMPL_IF_CUDA(...) __VA_ARGS__
#else
#define KPRIM_IMPL_IF_CUDA(...)
#endif

/// The instances of a host space (results on the host) and of Kokkos::Cuda (results in pinned
/// host memory, reduce_value's, or in the device's), declared (X = KPRIM_IMPL_DECLARE_*) or
/// defined.
#define KPRIM_IMPL_HOST_REDUCES(X, Space) KPRIM_IMPL_PRECOMPILED_REDUCES(X, Space, Kokkos::HostSpace)
#define KPRIM_IMPL_HOST_DOTS(X, Space) KPRIM_IMPL_PRECOMPILED_DOTS(X, Space, Kokkos::HostSpace)
#define KPRIM_IMPL_HOST_SCANS(X, Space)                    \
  KPRIM_IMPL_PRECOMPILED_SCANS(X, Space, KPRIM_IMPL_NO_TOTAL) \
  KPRIM_IMPL_PRECOMPILED_SCANS(X, Space, KPRIM_IMPL_HOST_TOTAL)
#define KPRIM_IMPL_CUDA_REDUCES(X)                                      \
  KPRIM_IMPL_PRECOMPILED_REDUCES(X, Kokkos::Cuda, PinnedHostSpace) \
  KPRIM_IMPL_PRECOMPILED_REDUCES(X, Kokkos::Cuda, Kokkos::CudaSpace)
#define KPRIM_IMPL_CUDA_DOTS(X)                                      \
  KPRIM_IMPL_PRECOMPILED_DOTS(X, Kokkos::Cuda, PinnedHostSpace) \
  KPRIM_IMPL_PRECOMPILED_DOTS(X, Kokkos::Cuda, Kokkos::CudaSpace)
#define KPRIM_IMPL_CUDA_SCANS(X)                                       \
  KPRIM_IMPL_PRECOMPILED_SCANS(X, Kokkos::Cuda, KPRIM_IMPL_NO_TOTAL) \
  KPRIM_IMPL_PRECOMPILED_SCANS(X, Kokkos::Cuda, KPRIM_IMPL_CUDA_TOTAL)

/// What one src/precompiled/ file defines, for every enabled space: the reduces over Views of
/// KPRIM_IMPL_LAYOUT; the scans whose total is KPRIM_IMPL_HOST_TOTAL_KIND on host spaces and
/// KPRIM_IMPL_CUDA_TOTAL_KIND on Kokkos::Cuda (KPRIM_IMPL_NO_TOTAL, or a rank-0 View in the space's
/// memory); the dots. The file defines those macros first.
#define KPRIM_IMPL_DEFINE_HOST_REDUCES(Space) \
  KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Space, KPRIM_IMPL_LAYOUT, Kokkos::HostSpace)
#define KPRIM_IMPL_DEFINE_REDUCES()                                                                                   \
  KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST_REDUCES)                                                     \
  KPRIM_IMPL_IF_CUDA(                                                                                                \
      KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Kokkos::Cuda, KPRIM_IMPL_LAYOUT, PinnedHostSpace) \
      KPRIM_IMPL_PRECOMPILED_REDUCE_TYPES(KPRIM_IMPL_DEFINE_REDUCE, Kokkos::Cuda, KPRIM_IMPL_LAYOUT, Kokkos::CudaSpace))
#define KPRIM_IMPL_DEFINE_HOST_SCANS(Space) \
  KPRIM_IMPL_PRECOMPILED_SCANS(KPRIM_IMPL_DEFINE_SCAN, Space, KPRIM_IMPL_HOST_TOTAL_KIND)
#define KPRIM_IMPL_DEFINE_SCANS()                                  \
  KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST_SCANS) \
  KPRIM_IMPL_IF_CUDA(KPRIM_IMPL_PRECOMPILED_SCANS(KPRIM_IMPL_DEFINE_SCAN, Kokkos::Cuda, KPRIM_IMPL_CUDA_TOTAL_KIND))
#define KPRIM_IMPL_DEFINE_HOST_DOTS(Space) KPRIM_IMPL_HOST_DOTS(KPRIM_IMPL_DEFINE_DOT, Space)
#define KPRIM_IMPL_DEFINE_DOTS()                                 \
  KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DEFINE_HOST_DOTS) \
  KPRIM_IMPL_IF_CUDA(KPRIM_IMPL_CUDA_DOTS(KPRIM_IMPL_DEFINE_DOT))

namespace kprim::impl {

#define KPRIM_IMPL_DECLARE_HOST_SPACE(Space)                  \
  KPRIM_IMPL_HOST_REDUCES(KPRIM_IMPL_DECLARE_REDUCE, Space) \
  KPRIM_IMPL_HOST_DOTS(KPRIM_IMPL_DECLARE_DOT, Space)       \
  KPRIM_IMPL_HOST_SCANS(KPRIM_IMPL_DECLARE_SCAN, Space)
KPRIM_IMPL_FOR_EACH_HOST_SPACE(KPRIM_IMPL_DECLARE_HOST_SPACE)
#undef KPRIM_IMPL_DECLARE_HOST_SPACE
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_CUDA_REDUCES(KPRIM_IMPL_DECLARE_REDUCE)
KPRIM_IMPL_CUDA_DOTS(KPRIM_IMPL_DECLARE_DOT)
KPRIM_IMPL_CUDA_SCANS(KPRIM_IMPL_DECLARE_SCAN)
#endif

}  // namespace kprim::impl
