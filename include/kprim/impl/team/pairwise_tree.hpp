#pragma once
// Team layer: combine `count` values held in team scratch into one, keeping their order.

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// Pairwise tree over values[0, count): each step folds neighbours (2i, 2i+1) into slot i of
/// the other buffer, so active threads stay contiguous and the result is
/// op(op(v0, v1), op(v2, v3))...: left-to-right order is kept, which non-commutative ops need.
/// One barrier per step. The caller must barrier after writing `values`; every thread gets the
/// result, and must barrier again before it reuses either buffer.
template <class Member, class T, class Op>
KOKKOS_FUNCTION T pairwise_tree(const Member& team, T* values, T* spare, int count, const Op& op) {
  const int rank = team.team_rank();
  const int size = team.team_size();
  while (count > 1) {
    const int half = (count + 1) / 2;
    for (int i = rank; i < half; i += size)
      spare[i] = (2 * i + 1 < count) ? op(values[2 * i], values[2 * i + 1]) : values[2 * i];
    team.team_barrier();
    T* const swap = values;
    values = spare;
    spare = swap;
    count = half;
  }
  return values[0];
}

}  // namespace kprim::impl::team
