#pragma once
// Team layer, reduction ladder rung 7: unroll_warps8 with the tree fully unrolled for a team
// size known at compile time.

#include <kprim/impl/team/interleaved_reduce.hpp>
#include <kprim/impl/warp/warp_reduce.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// The family of rung 7: the kernel (LadderReduce) switches once per team over the supported
/// team sizes (powers of two up to max_team_size) to fixed<TeamSize>, whose tree is a
/// compile-time sequence of steps (no loop, no run-time stride); the device driver refuses other
/// team sizes with kprim::invalid_argument before launching anything.
struct CompleteUnrollWarps8 {
  static constexpr bool fixed_team_size = true;
  static constexpr int max_team_size = 1024;

  static constexpr bool supports(int team_size) {
    return team_size >= 1 && team_size <= max_team_size && (team_size & (team_size - 1)) == 0;
  }

  template <int TeamSize>
  struct fixed : Interleaved {
    static_assert(supports(TeamSize));
    static constexpr int unroll = 8;
    static constexpr int buffers = 2;

    template <class Op>
    KOKKOS_INLINE_FUNCTION static constexpr int slots(int) { return TeamSize; }
    template <class Op>
    KOKKOS_INLINE_FUNCTION static constexpr int slot(int rank, int) {
      return is_commutative_v<Op> ? rank : reverse_bits(rank, TeamSize);
    }

    template <int Stride, class Member, class T, class Op>
    KOKKOS_FORCEINLINE_FUNCTION static void unrolled_steps(const Member& team, T* values, const Op& op) {
      if constexpr (Stride >= warp::width) {
        const int rank = team.team_rank();
        if (rank < Stride) values[rank] = op(values[rank], values[rank + Stride]);
        team.team_barrier();
        unrolled_steps<Stride / 2>(team, values, op);
      }
    }

    template <class Space, class Member, class T, class Op>
    KOKKOS_INLINE_FUNCTION static T reduce(const Member& team, T* values, int, const Op& op) {
      unrolled_steps<TeamSize / 2>(team, values, op);
      return warp::reduce_last<Space>(team, values, TeamSize < warp::width ? TeamSize : warp::width, op);
    }
  };
};

}  // namespace kprim::impl::team
