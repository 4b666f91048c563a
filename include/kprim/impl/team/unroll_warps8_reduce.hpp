#pragma once
// Team layer, reduction ladder rung 6: unroll8, with the last 32 values finished by the warp step.

#include <kprim/impl/team/interleaved_reduce.hpp>
#include <kprim/impl/warp/warp_reduce.hpp>

namespace kprim::impl::team {

/// Rung 5 with team barriers only while more than 32 values are left; warp::reduce_last folds
/// the last <= 32 without one (one thread on every space; shuffles within warp 0 on CUDA for
/// the built-in ops). Two scratch buffers alternate between chunks, so the next chunk's stores
/// never race with the warp step still reading the previous one: no extra barrier is needed.
struct UnrollWarps8 : Interleaved {
  static constexpr int unroll = 8;
  static constexpr int buffers = 2;

  template <class Space, class Member, class T, class Op>
  KOKKOS_INLINE_FUNCTION static T reduce(const Member& team, T* values, int size, const Op& op) {
    const int count = slots<Op>(size);
    steps(team, values, count, warp::width, op);
    return warp::reduce_last<Space>(team, values, count < warp::width ? count : warp::width, op);
  }
};

}  // namespace kprim::impl::team
