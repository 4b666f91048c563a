#pragma once
// Team layer, reduction ladder rung 4: two elements combined per thread while loading.

#include <kprim/impl/team/interleaved_reduce.hpp>

namespace kprim::impl::team {

/// Rung 3's tree over chunks of 2 * team_size elements: each thread first folds two of them
/// (commutative ops: elements r and r + team_size of the chunk, coalesced; other ops: elements
/// 2r and 2r + 1, so each thread holds a contiguous run), halving the trees per element.
struct Unroll2 : Interleaved {
  static constexpr int unroll = 2;
};

}  // namespace kprim::impl::team
