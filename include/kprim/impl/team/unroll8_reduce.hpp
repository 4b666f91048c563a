#pragma once
// Team layer, reduction ladder rung 5: eight elements combined per thread while loading.

#include <kprim/impl/team/interleaved_reduce.hpp>

namespace kprim::impl::team {

/// Rung 3's tree over chunks of 8 * team_size elements; each thread folds 8 of them first
/// (eight independent loads in flight per thread for commutative ops).
struct Unroll8 : Interleaved {
  static constexpr int unroll = 8;
};

}  // namespace kprim::impl::team
