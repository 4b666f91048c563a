#pragma once
// The one trait that says whether kprim has a hand-written CUDA path for (execution space,
// value type, op). The device layer asks it with `if constexpr`; everything it rejects (other
// spaces, user ops, user types, mixed input/accumulator types) runs the portable Kokkos kernels.
// The hand-written paths are compiled into the library (src/cuda/*.cu) for exactly the
// combinations this trait accepts, so the two cannot disagree.

#include <kprim/config.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// Value types with a hand-written path: 4- and 8-byte integers and floating point.
template <class T>
inline constexpr bool is_cuda_value_v =
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::uint64_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;

/// Ops with a hand-written path: the built-in ones.
template <class Op>
inline constexpr bool is_cuda_op_v = std::is_same_v<Op, Sum> || std::is_same_v<Op, Prod> ||
                                     std::is_same_v<Op, Min> || std::is_same_v<Op, Max>;

/// True when the hand-written CUDA path exists for (Space, T, Op): Kokkos::Cuda x
/// {int32, int64, uint32, uint64, float, double} x {Sum, Prod, Min, Max}, and kprim was built
/// with KPRIM_ENABLE_CUDA_WARP.
template <class Space, class T, class Op>
inline constexpr bool has_cuda_path_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<Space, Kokkos::Cuda> && is_cuda_value_v<T> && is_cuda_op_v<Op>;
#else
    false;
#endif

}  // namespace kprim::impl::cuda
