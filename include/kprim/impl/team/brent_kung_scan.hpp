#pragma once
// Team layer, scan ladder rung 3: the Brent-Kung inclusive scan of PMPP (seed 000).

#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// PMPP's tier-1 kernel, in place in scratch: a reduction tree (stride 1, 2, 4, ...: element
/// (k+1) 2 stride - 1 absorbs the one `stride` before it) and a distribution tree (stride
/// halving: element (k+1) 2 stride - 1 + stride absorbs the finished prefix `stride` before it).
/// PMPP gives each thread 2 elements of a section; here the section is the tile and the team
/// spreads each level's active indices over its threads, so any tile size and any count work
/// (the distribution starts at half the largest power of two <= count). Inclusive by nature;
/// the exclusive output reads the inclusive value one to the left. Left operand always the
/// earlier range: any op.
struct BrentKungTile {
  KOKKOS_INLINE_FUNCTION static constexpr std::int64_t scratch_elements(int team_size, int items_per_thread) {
    return std::int64_t(team_size) * items_per_thread;
  }

  template <class Member, class T, class In, class Out, class Op>
  KOKKOS_INLINE_FUNCTION static T scan(const Member& team, T* xy, const In& in, const Out& out, std::int64_t begin,
                                       int count, int /*tile*/, bool exclusive, const T& seed, const Op& op) {
    const int rank = team.team_rank();
    const int size = team.team_size();
    for (int k = rank; k < count; k += size) xy[k] = T(in(begin + k));
    team.team_barrier();
    for (int stride = 1; stride < count; stride *= 2) {
      for (int k = rank;; k += size) {
        const std::int64_t index = (std::int64_t(k) + 1) * 2 * stride - 1;
        if (index >= count) break;
        xy[index] = op(xy[index - stride], xy[index]);
      }
      team.team_barrier();
    }
    int top = 1;  // largest power of two <= count
    while (2 * top <= count) top *= 2;
    for (int stride = top / 2; stride > 0; stride /= 2) {
      for (int k = rank;; k += size) {
        const std::int64_t index = (std::int64_t(k) + 1) * 2 * stride - 1;
        if (index + stride >= count) break;
        xy[index + stride] = op(xy[index], xy[index + stride]);
      }
      team.team_barrier();
    }
    for (int k = rank; k < count; k += size) {
      if (exclusive) out(begin + k) = k == 0 ? seed : op(seed, xy[k - 1]);
      else out(begin + k) = op(seed, xy[k]);
    }
    return count > 0 ? xy[count - 1] : identity_of<T>(op);
  }
};

}  // namespace kprim::impl::team
