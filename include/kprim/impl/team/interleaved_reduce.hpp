#pragma once
// Team layer, reduction ladder rung 3: interleaved pairs (Harris' "sequential addressing").

#include <kprim/impl/warp/warp_reduce.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

namespace kprim::impl::team {

/// `index` with its low log2(count) bits reversed (count a power of two).
KOKKOS_INLINE_FUNCTION constexpr int reverse_bits(int index, int count) {
  int reversed = 0;
  for (int bit = 1; bit < count; bit *= 2) {
    reversed = 2 * reversed + (index & 1);
    index >>= 1;
  }
  return reversed;
}

/// Stride halving from half the (power-of-two rounded) team: thread i < stride folds slot
/// i + stride into slot i. Active threads are contiguous and a warp reads consecutive slots.
///
/// Order: the tree combines slot i with slot i + stride, so it folds the slots in bit-reversed
/// order (for 8 slots: 0 4 2 6 1 5 3 7). That is fine for commutative ops, where thread t's value
/// sits in slot t. For other ops thread t's value goes to slot reverse_bits(t, P) of P =
/// ceil_pow2(size) slots (the rest hold the identity), so the tree folds the threads in order.
struct Interleaved {
  static constexpr int unroll = 1;
  static constexpr int buffers = 1;

  template <class Op>
  KOKKOS_INLINE_FUNCTION static constexpr int slots(int size) {
    return is_commutative_v<Op> ? size : warp::ceil_pow2(size);
  }
  template <class Op>
  KOKKOS_INLINE_FUNCTION static constexpr int slot(int rank, int size) {
    return is_commutative_v<Op> ? rank : reverse_bits(rank, warp::ceil_pow2(size));
  }

  /// One step per stride from ceil_pow2(count)/2 down to `last` (>= 1), with a barrier each;
  /// afterwards values[0, min(count, last)) hold the partial results of the tree.
  template <class Member, class T, class Op>
  KOKKOS_INLINE_FUNCTION static void steps(const Member& team, T* values, int count, int last, const Op& op) {
    const int rank = team.team_rank();
    for (int stride = warp::ceil_pow2(count) / 2; stride >= last; stride /= 2) {
      if (rank < stride && rank + stride < count) values[rank] = op(values[rank], values[rank + stride]);
      team.team_barrier();
    }
  }

  /// The caller barriers after writing `values`; the result is valid on rank 0.
  template <class Space, class Member, class T, class Op>
  KOKKOS_INLINE_FUNCTION static T reduce(const Member& team, T* values, int size, const Op& op) {
    steps(team, values, slots<Op>(size), 1, op);
    // Only rank 0's result is used; the others return their own slot, since reading values[0]
    // would race with rank 0 storing its next chunk there (racecheck, H100, 2026-11-22).
    const int rank = team.team_rank();
    return values[rank == 0 ? 0 : slot<Op>(rank, size)];
  }
};

}  // namespace kprim::impl::team
