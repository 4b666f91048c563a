#pragma once
// Team layer, scan ladder rung 2: Blelloch's work-efficient scan of a whole tile.

#include <kprim/impl/team/blelloch_scan.hpp>
#include <kprim/impl/warp/warp_reduce.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Every element of the tile goes to scratch (padded against bank conflicts, rounded up to a
/// power of two with the identity), then blelloch_exclusive_scan (up-sweep, clear, down-sweep:
/// O(tile) work, 2 log2(tile) barriers), the same routine the three_phase tile runs over its
/// per-thread folds. Inclusive results are the exclusive ones shifted by one, the last being
/// the total, so the input is not read twice. Left-to-right order is kept: any op.
struct BlellochTile {
  KOKKOS_INLINE_FUNCTION static constexpr std::int64_t scratch_elements(int team_size, int items_per_thread) {
    const std::int64_t tile = std::int64_t(team_size) * items_per_thread;
    if (tile > (1 << 29)) return std::int64_t(1) << 40;  // no scratch is that big
    return padded_size(warp::ceil_pow2(int(tile))) + 1;
  }

  template <class Member, class T, class In, class Out, class Op>
  KOKKOS_INLINE_FUNCTION static T scan(const Member& team, T* scratch, const In& in, const Out& out,
                                       std::int64_t begin, int count, int tile, bool exclusive, const T& seed,
                                       const Op& op) {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const int slots = warp::ceil_pow2(tile);
    T* const total_slot = scratch + padded_size(slots);  // one past the padded slots
    const T identity = identity_of<T>(op);
    for (int k = rank; k < slots; k += size) scratch[padded(k)] = k < count ? T(in(begin + k)) : identity;
    team.team_barrier();
    const T total = blelloch_exclusive_scan(team, scratch, slots, total_slot, op);
    for (int k = rank; k < count; k += size) {
      if (exclusive) out(begin + k) = op(seed, scratch[padded(k)]);
      else out(begin + k) = op(seed, k + 1 < slots ? scratch[padded(k + 1)] : total);
    }
    return total;
  }
};

}  // namespace kprim::impl::team
