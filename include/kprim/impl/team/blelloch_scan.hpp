#pragma once
// Team layer: work-efficient exclusive scan of values held in team scratch.

#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// Scratch index with one padding slot every 32 elements, so the strided accesses of the
/// sweeps below (and a thread reading its own run of items) fall in different banks of
/// GPU shared memory instead of serialising on one.
KOKKOS_INLINE_FUNCTION constexpr int padded(int index) { return index + (index >> 5); }
KOKKOS_INLINE_FUNCTION constexpr int padded_size(int count) { return count + (count >> 5) + 1; }

/// Blelloch's up-sweep/down-sweep over values[padded(0 .. count)), count a power of two:
/// afterwards slot i holds op(v0, ..., v(i-1)) (identity for i = 0) and every thread gets the
/// total. O(count) work, 2 log2(count) barriers. Operands stay in left-to-right order.
/// The caller must barrier after writing `values`; `total_slot` is one more scratch value.
template <class Member, class T, class Op>
KOKKOS_FUNCTION T blelloch_exclusive_scan(const Member& team, T* values, int count, T* total_slot, const Op& op) {
  const int rank = team.team_rank();
  const int size = team.team_size();
  for (int stride = 1; stride < count; stride *= 2) {
    const int pairs = count / (2 * stride);
    for (int i = rank; i < pairs; i += size) {
      const int right = (2 * i + 2) * stride - 1;
      values[padded(right)] = op(values[padded(right - stride)], values[padded(right)]);
    }
    team.team_barrier();
  }
  if (rank == 0) {
    *total_slot = values[padded(count - 1)];
    values[padded(count - 1)] = identity_of<T>(op);
  }
  team.team_barrier();
  for (int stride = count / 2; stride >= 1; stride /= 2) {
    const int pairs = count / (2 * stride);
    for (int i = rank; i < pairs; i += size) {
      const int right = (2 * i + 2) * stride - 1;
      const T left_total = values[padded(right - stride)];
      values[padded(right - stride)] = values[padded(right)];
      values[padded(right)] = op(values[padded(right)], left_total);
    }
    team.team_barrier();
  }
  return *total_slot;
}

}  // namespace kprim::impl::team
