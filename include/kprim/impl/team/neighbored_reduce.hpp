#pragma once
// Team layer, reduction ladder rung 1: neighbored pairs (Harris' "interleaved addressing with
// divergent branching").

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// Slot i holds thread i's value. Step `stride` (1, 2, 4, ...): thread i is active when
/// i % (2 stride) == 0 and folds its right neighbour, values[i] = op(values[i], values[i + stride]).
/// Active threads are scattered over every warp (divergent), which is what the next rung fixes.
/// Slot i then covers elements [i, i + 2 stride) in order, so any op (commutative or not) and any
/// team size work. One barrier per step; the result is in values[0] after the last one.
struct Neighbored {
  static constexpr int unroll = 1;   // elements each thread combines while loading
  static constexpr int buffers = 1;  // scratch buffers per team

  template <class Op>
  KOKKOS_INLINE_FUNCTION static constexpr int slots(int size) { return size; }
  template <class Op>
  KOKKOS_INLINE_FUNCTION static constexpr int slot(int rank, int /*size*/) { return rank; }

  /// The caller barriers after writing `values`; the result is valid on rank 0.
  template <class Space, class Member, class T, class Op>
  KOKKOS_INLINE_FUNCTION static T reduce(const Member& team, T* values, int size, const Op& op) {
    const int rank = team.team_rank();
    for (int stride = 1; stride < size; stride *= 2) {
      if (rank % (2 * stride) == 0 && rank + stride < size) values[rank] = op(values[rank], values[rank + stride]);
      team.team_barrier();
    }
    // Only rank 0's result is used. The others return their own slot: reading values[0] would
    // race with rank 0 writing its next chunk there (compute-sanitizer racecheck, H100, 2026-11-22).
    return values[rank == 0 ? 0 : rank];
  }
};

}  // namespace kprim::impl::team
