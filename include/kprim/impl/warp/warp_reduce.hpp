#pragma once
// Warp layer, portable: the last steps of a team tree (<= 32 values) without team barriers.
//
// The seeds finish a reduction with the last warp updating shared memory through a `volatile`
// pointer and no barrier. That relies on lock-step warps, which Volta's independent thread
// scheduling broke, and means nothing on CPU spaces, where a "team" is one OS thread or several.
// Here the barrier-free finish is done safely:
// - everywhere: after the team barrier that published the values, ONE thread finishes the tree
//   over them alone (at most 31 ops, no other thread touches them), in the same interleaved
//   order the team tree would have used, so the result is bit-identical to the full tree;
// - on CUDA, for kprim's built-in ops on common types (cuda::has_cuda_path_v) and a team size
//   that is a multiple of 32: the first warp (team ranks 0..31, one full warp when the vector
//   length is 1) combines the values with register shuffles (cuda::warp_reduce), in lane order.

#include <kprim/impl/cuda/trait.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
#include <kprim/impl/cuda/warp.cuh>
#endif

namespace kprim::impl::warp {

inline constexpr int width = 32;

/// The smallest power of two >= count (count >= 1).
KOKKOS_INLINE_FUNCTION constexpr int ceil_pow2(int count) {
  int power = 1;
  while (power < count) power *= 2;
  return power;
}

/// One thread finishes an interleaved tree over values[0, count): for stride = ceil_pow2(count)/2
/// down to 1, values[i] = op(values[i], values[i + stride]) where i + stride < count. Returns
/// values[0]. Writes into `values`; nobody else may touch them meanwhile.
template <class T, class Op>
KOKKOS_INLINE_FUNCTION T fold_interleaved(T* values, int count, const Op& op) {
  for (int stride = ceil_pow2(count) / 2; stride > 0; stride /= 2)
    for (int i = 0; i < stride && i + stride < count; ++i) values[i] = op(values[i], values[i + stride]);
  return values[0];
}

/// The warp step of the unroll_warps8 rungs: reduces values[0, count) (count <= 32, written by
/// the team before a team barrier) without any further team barrier. The result is valid on
/// team rank 0 only. Callers must not overwrite `values` until a later team barrier.
template <class Space, class Member, class T, class Op>
KOKKOS_INLINE_FUNCTION T reduce_last(const Member& team, T* values, int count, const Op& op) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (cuda::has_cuda_path_v<Space, T, Op>) {
#ifdef __CUDA_ARCH__
    // Ranks 0..31 are one full warp only when the team is made of whole warps.
    if (team.team_size() % width == 0) {
      const int rank = team.team_rank();
      if (rank >= width) return identity_of<T>(op);  // the whole of warp 0 enters below
      const T value = rank < count ? values[rank] : identity_of<T>(op);
      return cuda::warp_reduce(value, op);  // lane 0 (team rank 0) gets op over lanes 0..31
    }
#endif
  }
#endif
  return team.team_rank() == 0 ? fold_interleaved(values, count, op) : identity_of<T>(op);
}

}  // namespace kprim::impl::warp
