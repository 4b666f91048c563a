#pragma once
// Team layer of reduce, ladder rungs 1-7: one kernel that walks a team's tiles in chunks and
// reduces each chunk with the rung's tree in scratch. The rungs (neighbored_reduce.hpp ...
// complete_unroll_warps8_reduce.hpp) differ in how many elements a thread combines while
// loading (`unroll`), where a thread's value sits in scratch, and the tree.

#include <kprim/impl/team/complete_unroll_warps8_reduce.hpp>
#include <kprim/impl/team/interleaved_reduce.hpp>
#include <kprim/impl/team/neighbored_less_reduce.hpp>
#include <kprim/impl/team/neighbored_reduce.hpp>
#include <kprim/impl/team/unroll2_reduce.hpp>
#include <kprim/impl/team/unroll8_reduce.hpp>
#include <kprim/impl/team/unroll_warps8_reduce.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

template <class Rung>
inline constexpr bool has_fixed_team_size_v = [] {
  if constexpr (requires { Rung::fixed_team_size; }) return bool(Rung::fixed_team_size);
  else return false;
}();

/// Each team reduces its tiles (tile = team_size * items_per_thread elements) into
/// partials[league_rank]. A tile is walked in chunks of team_size * Rung::unroll elements (the
/// block of Harris' kernels); each chunk is loaded into scratch (each thread first folding
/// `unroll` elements), reduced by the rung's tree, and added to the team's running total on rank 0.
/// - Commutative ops: teams take tiles grid-stride; in a chunk thread r folds elements
///   r, r + team_size, ... (coalesced).
/// - Other ops: team k owns one contiguous run of whole tiles, walked in order, and in a chunk
///   thread r folds the contiguous elements r * unroll ... r * unroll + unroll - 1; every tree keeps
///   the threads' order, so left-to-right order holds throughout.
/// Never reads past `n`: every load is bounds-checked (the seeds' unrolled loads drop a tail).
template <class Space, class T, class Source, class Op, class Rung>
struct LadderReduce {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  int items_per_thread;
  T* partials;
  Op op;

  template <class R>
  static std::size_t scratch_bytes_of(int team_size) {
    return R::buffers * scratch_view::shmem_size(R::template slots<Op>(team_size));
  }
  static std::size_t scratch_bytes(int team_size) {
    if constexpr (has_fixed_team_size_v<Rung>) {
      // Sizes the driver will refuse get a plausible number; they never launch.
      return 2 * scratch_view::shmem_size(team_size > 0 ? team_size : 1);
    } else {
      return scratch_bytes_of<Rung>(team_size);
    }
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    if constexpr (has_fixed_team_size_v<Rung>) dispatch<1>(team);
    else run<Rung>(team, team.team_size());
  }

 private:
  /// Complete unrolling: one switch per team over the supported sizes.
  template <int TeamSize>
  KOKKOS_FUNCTION void dispatch(const member_type& team) const {
    if (team.team_size() == TeamSize) {
      run<typename Rung::template fixed<TeamSize>>(team, TeamSize);
    } else if constexpr (TeamSize < Rung::max_team_size) {
      dispatch<2 * TeamSize>(team);
    }
  }

  /// Reduces elements [begin, end) chunk by chunk into `acc` (meaningful on rank 0).
  template <class R>
  KOKKOS_INLINE_FUNCTION void reduce_range(const member_type& team, const int size, std::int64_t begin,
                                           std::int64_t end, T* const buffers[2], int& parity, T& acc) const {
    const int rank = team.team_rank();
    const int slots = R::template slots<Op>(size);
    const std::int64_t chunk = std::int64_t(size) * R::unroll;
    const T identity = identity_of<T>(op);
    for (std::int64_t base = begin; base < end; base += chunk) {
      T value = identity;
      if constexpr (is_commutative_v<Op>) {
        const std::int64_t first = base + rank;
        for (int k = 0; k < R::unroll; ++k) {
          const std::int64_t i = first + std::int64_t(k) * size;
          if (i < end) value = op(value, T(source(i)));
        }
      } else {
        const std::int64_t first = base + std::int64_t(rank) * R::unroll;
        for (int k = 0; k < R::unroll; ++k) {
          const std::int64_t i = first + k;
          if (i < end) value = op(value, T(source(i)));
        }
      }
      T* const values = buffers[parity];
      values[R::template slot<Op>(rank, size)] = value;
      for (int j = size + rank; j < slots; j += size) values[R::template slot<Op>(j, size)] = identity;
      team.team_barrier();
      const T total = R::template reduce<Space>(team, values, size, op);
      if (rank == 0) acc = op(acc, total);
      if constexpr (R::buffers == 2) parity ^= 1;
    }
  }

  template <class R>
  KOKKOS_INLINE_FUNCTION void run(const member_type& team, const int size) const {
    const std::int64_t tile = std::int64_t(size) * items_per_thread;
    const std::int64_t num_tiles = (n + tile - 1) / tile;
    const std::int64_t league = team.league_size();
    const int slots = R::template slots<Op>(size);
    scratch_view first(team.team_scratch(0), slots);
    scratch_view second(team.team_scratch(0), R::buffers == 2 ? slots : 0);
    T* const buffers[2] = {first.data(), R::buffers == 2 ? second.data() : first.data()};
    int parity = 0;

    T acc = identity_of<T>(op);
    if constexpr (is_commutative_v<Op>) {
      for (std::int64_t t = team.league_rank(); t < num_tiles; t += league)
        reduce_range<R>(team, size, t * tile, Kokkos::min(n, (t + 1) * tile), buffers, parity, acc);
    } else {
      const std::int64_t tiles_per_team = (num_tiles + league - 1) / league;
      const std::int64_t team_begin = Kokkos::min(n, team.league_rank() * tiles_per_team * tile);
      const std::int64_t team_end = Kokkos::min(n, team_begin + tiles_per_team * tile);
      reduce_range<R>(team, size, team_begin, team_end, buffers, parity, acc);
    }
    if (team.team_rank() == 0) partials[team.league_rank()] = acc;
  }
};

}  // namespace kprim::impl::team
