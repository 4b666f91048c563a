#pragma once
// The one trait that says whether kprim has a hand-written CUDA path for a call (kokkos-kernels'
// *_spec_avail): (execution space, primitive, input element type, accumulator type, op). The
// device layer (impl/device/dispatch.hpp) asks it once per call with `if constexpr`; what it
// rejects runs the portable Kokkos kernels.
//
// On Kokkos::Cuda, with KPRIM_ENABLE_CUDA_WARP:
// - reduce and dot: any trivially copyable input and accumulator the input converts to, any op
//   that declares `is_commutative` (the kernel deals elements out grid-stride, as CUB's
//   DeviceReduce does; ops that keep the input order run the portable kernels); accumulators of
//   up to 32 bytes move through shuffles, larger ones through shared memory;
// - scans: the same, with accumulators of 1, 2, 4, 8 or 16 bytes (whole 16-byte vectors in the
//   shared-memory runs: the built-in types, Kokkos::complex<double>, small structs).
// The combinations precompiled in the library (api.hpp) are always available; the others need the
// call compiled by nvcc (any CUDA Kokkos build compiles its users' sources that way).

#include <kprim/config.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl {

/// What a call computes; the trait and the device layer's launch shapes are per primitive.
enum class Primitive { reduce, scan };

namespace cuda {

/// Value types of the hand-written warp steps inside the portable kernels (impl/warp): 4- and
/// 8-byte integers and floating point.
template <class T>
inline constexpr bool is_cuda_value_v =
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::uint64_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;

/// The built-in ops.
template <class Op>
inline constexpr bool is_cuda_op_v = std::is_same_v<Op, Sum> || std::is_same_v<Op, Prod> ||
                                     std::is_same_v<Op, Min> || std::is_same_v<Op, Max>;

/// True when the portable kernels' warp step may use register shuffles (impl/warp/warp_reduce.hpp).
template <class Space, class T, class Op>
inline constexpr bool has_cuda_path_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<Space, Kokkos::Cuda> && is_cuda_value_v<T> && is_cuda_op_v<Op>;
#else
    false;
#endif

/// True for the (In, T, Op) compiled into the library (api.hpp's KPRIM_CUDA_FOR_EACH_PRECOMPILED).
template <class In, class T, class Op>
inline constexpr bool is_precompiled_v =
    (is_cuda_value_v<T> && std::is_same_v<In, T> && is_cuda_op_v<Op>) ||
    (std::is_same_v<Op, Sum> && ((std::is_same_v<In, std::int32_t> && std::is_same_v<T, std::int64_t>) ||
                                 (std::is_same_v<In, float> && std::is_same_v<T, double>)));

/// The generic conditions of the hand-written kernels for primitive P.
template <Primitive P, class In, class T>
inline constexpr bool kernels_take_v =
    std::is_trivially_copyable_v<In> && std::is_trivially_copyable_v<T> && std::is_convertible_v<In, T> &&
    (P == Primitive::reduce || (sizeof(T) <= 16 && 16 % sizeof(T) == 0));

}  // namespace cuda

/// kprim's hand-written path for (Space, P, In, T, Op): false unless specialised below.
template <class Space, Primitive P, class In, class T, class Op>
struct cuda_spec_avail : std::false_type {};

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
template <Primitive P, class In, class T, class Op>
struct cuda_spec_avail<Kokkos::Cuda, P, In, T, Op>
    : std::bool_constant<cuda::kernels_take_v<P, In, T> && (P == Primitive::scan || is_commutative_v<Op>) &&
#if defined(__CUDACC__)
                         true
#else
                         cuda::is_precompiled_v<In, T, Op>
#endif
                         > {
};
#endif

template <class Space, Primitive P, class In, class T, class Op>
inline constexpr bool cuda_spec_avail_v = cuda_spec_avail<Space, P, In, T, Op>::value;

/// kprim's hand-written path for a call whose input is a functor or whose output is a callback
/// (lambdas: compiled by nvcc where the call is made, never precompiled): the same conditions on
/// T and Op as for Views.
template <class Space, Primitive P, class T, class Op>
inline constexpr bool cuda_indexed_avail_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    std::is_same_v<Space, Kokkos::Cuda> && cuda::kernels_take_v<P, T, T> &&
    (P == Primitive::scan || is_commutative_v<Op>);
#else
    false;
#endif

/// kprim's hand-written path for the team-level calls (kprim/team.hpp) of a team `Member` on
/// accumulators T: CUDA teams (the call is always compiled by nvcc, inside the user's kernel),
/// any trivially copyable T of at most 32 bytes (what the warp shuffles move), any op. Whether the
/// launched team's shape fits (whole warps, no vector lanes) is checked on the device.
template <class Member, class T>
inline constexpr bool cuda_team_avail_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    std::is_same_v<Member, typename Kokkos::TeamPolicy<Kokkos::Cuda>::member_type> &&
    std::is_trivially_copyable_v<T> && sizeof(T) <= 32;
#else
    false;
#endif

/// kprim's hand-written segmented scan (impl/cuda/segmented_scan.cuh) for input elements In and
/// accumulators T: CUDA, compiled where the call is (never precompiled), the scan kernels' element
/// conditions with accumulators of up to 8 bytes (the lanes' runs keep their head bits in one
/// word), any op with an identity.
template <class Space, class In, class T>
inline constexpr bool cuda_segmented_scan_avail_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    std::is_same_v<Space, Kokkos::Cuda> && cuda::kernels_take_v<Primitive::scan, In, T> && sizeof(T) <= 8;
#else
    false;
#endif

}  // namespace kprim::impl
