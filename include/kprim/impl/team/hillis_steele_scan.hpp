#pragma once
// Team layer, scan ladder rung 1: Hillis & Steele's naive inclusive scan of a whole tile.

#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Step d = 1, 2, 4, ...: element k becomes op(element k - d, element k) for k >= d. Reading and
/// writing the same array in one step would race, so two scratch buffers alternate (double
/// buffering, as in Harris/Sengupta/Owens). log2(tile) steps of `tile` ops: O(tile log tile)
/// work, against O(tile) for a sequential scan. Left operand always the earlier one: any op.
struct HillisSteeleTile {
  KOKKOS_INLINE_FUNCTION static constexpr std::int64_t scratch_elements(int team_size, int items_per_thread) {
    return 2 * std::int64_t(team_size) * items_per_thread;
  }

  /// Scans in(begin .. begin + count) into out, seeded with `seed` (out = op(seed, prefix));
  /// returns the tile's total without the seed (on every thread). Reads the whole tile before
  /// writing any of it (in-place safe); the caller barriers before the next tile.
  template <class Member, class T, class In, class Out, class Op>
  KOKKOS_INLINE_FUNCTION static T scan(const Member& team, T* scratch, const In& in, const Out& out,
                                       std::int64_t begin, int count, int tile, bool exclusive, const T& seed,
                                       const Op& op) {
    const int rank = team.team_rank();
    const int size = team.team_size();
    T* from = scratch;
    T* to = scratch + tile;
    for (int k = rank; k < count; k += size) from[k] = T(in(begin + k));
    team.team_barrier();
    for (int d = 1; d < count; d *= 2) {
      for (int k = rank; k < count; k += size) to[k] = k >= d ? op(from[k - d], from[k]) : from[k];
      team.team_barrier();
      T* const swap = from;
      from = to;
      to = swap;
    }
    for (int k = rank; k < count; k += size) {
      if (exclusive) out(begin + k) = k == 0 ? seed : op(seed, from[k - 1]);
      else out(begin + k) = op(seed, from[k]);
    }
    return count > 0 ? from[count - 1] : identity_of<T>(op);
  }
};

}  // namespace kprim::impl::team
