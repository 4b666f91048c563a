#pragma once
// Team layer, reduction ladder rung 2: neighbored pairs without divergence (Harris' "interleaved
// addressing" with a strided index).

#include <kprim/impl/team/neighbored_reduce.hpp>

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// The pairs of rung 1 (slot i folds slot i + stride for i a multiple of 2 stride), but thread t
/// works on slot i = 2 stride t, so the active threads are the first size / (2 stride): whole
/// warps are busy or idle together. Same order (any op), same barriers.
struct NeighboredLess : Neighbored {
  template <class Space, class Member, class T, class Op>
  KOKKOS_INLINE_FUNCTION static T reduce(const Member& team, T* values, int size, const Op& op) {
    const int rank = team.team_rank();
    for (int stride = 1; stride < size; stride *= 2) {
      const int index = 2 * stride * rank;
      if (index + stride < size) values[index] = op(values[index], values[index + stride]);
      team.team_barrier();
    }
    return values[rank == 0 ? 0 : rank];  // as Neighbored: no read of slot 0 that races with the next chunk
  }
};

}  // namespace kprim::impl::team
