#pragma once
// Team layer of reduce: one team folds its share of the input into one partial.

#include <kprim/impl/team/pairwise_tree.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Each team reduces some tiles of `source` (tile = team_size * items_per_thread elements)
/// into `partials[league_rank]`.
/// - Commutative ops: teams take tiles grid-stride (tile t, t + league, ...), and within a tile
///   thread r reads elements r, r + team_size, ... so neighbouring threads read neighbouring
///   elements (coalesced on GPUs).
/// - Other ops: team k owns one contiguous run of whole tiles and each thread a contiguous part
///   of it, so the pairwise tree over the threads' values keeps left-to-right order.
template <class Space, class T, class Source, class Op>
struct ReduceTiles {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  int items_per_thread;
  T* partials;
  Op op;

  static std::size_t scratch_bytes(int team_size) { return 2 * scratch_view::shmem_size(team_size); }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const std::int64_t tile = std::int64_t(size) * items_per_thread;
    const std::int64_t num_tiles = (n + tile - 1) / tile;
    const std::int64_t league = team.league_size();

    T acc = identity_of<T>(op);
    if constexpr (is_commutative_v<Op>) {
      for (std::int64_t t = team.league_rank(); t < num_tiles; t += league) {
        const std::int64_t base = t * tile + rank;
        for (int k = 0; k < items_per_thread; ++k) {
          const std::int64_t i = base + std::int64_t(k) * size;
          if (i < n) acc = op(acc, T(source(i)));
        }
      }
    } else {
      const std::int64_t tiles_per_team = (num_tiles + league - 1) / league;
      const std::int64_t team_begin = Kokkos::min(n, team.league_rank() * tiles_per_team * tile);
      const std::int64_t team_end = Kokkos::min(n, team_begin + tiles_per_team * tile);
      const std::int64_t chunk = (team_end - team_begin + size - 1) / size;
      const std::int64_t begin = Kokkos::min(team_end, team_begin + rank * chunk);
      const std::int64_t end = Kokkos::min(team_end, begin + chunk);
      for (std::int64_t i = begin; i < end; ++i) acc = op(acc, T(source(i)));
    }

    scratch_view values(team.team_scratch(0), size);
    scratch_view spare(team.team_scratch(0), size);
    values(rank) = acc;
    team.team_barrier();
    const T total = pairwise_tree(team, values.data(), spare.data(), size, op);
    if (rank == 0) partials[team.league_rank()] = total;
  }
};

}  // namespace kprim::impl::team
