#pragma once
// Team layer, reduction ladder rung 8: the dot-product form of "CUDA by Example".

#include <kprim/impl/team/interleaved_reduce.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Each thread first folds a grid-stride loop over the whole input in a register (global thread
/// g reads g, g + threads, g + 2 threads, ...: coalesced, any n with any number of teams), then
/// the team's values meet once in an interleaved tree (rung 3's) and rank 0 writes the partial.
/// Ops that are not commutative cannot take a grid-stride loop (it interleaves the teams); for
/// them team k owns the k-th contiguous share of the input and thread r the r-th contiguous
/// share of that, and the tree keeps the threads' order. `items_per_thread` only sets, through
/// the launch shape, how many teams run (one per tile, capped by max_teams).
template <class Space, class T, class Source, class Op>
struct GridStrideReduce {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  int items_per_thread;
  T* partials;
  Op op;

  static std::size_t scratch_bytes(int team_size) {
    return scratch_view::shmem_size(Interleaved::slots<Op>(team_size));
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const std::int64_t league = team.league_size();
    const T identity = identity_of<T>(op);

    T acc = identity;
    if constexpr (is_commutative_v<Op>) {
      const std::int64_t threads = league * size;
      for (std::int64_t i = team.league_rank() * size + rank; i < n; i += threads) acc = op(acc, T(source(i)));
    } else {
      const std::int64_t per_team = (n + league - 1) / league;
      const std::int64_t team_begin = Kokkos::min(n, team.league_rank() * per_team);
      const std::int64_t team_end = Kokkos::min(n, team_begin + per_team);
      const std::int64_t per_thread = (team_end - team_begin + size - 1) / size;
      const std::int64_t begin = Kokkos::min(team_end, team_begin + rank * per_thread);
      const std::int64_t end = Kokkos::min(team_end, begin + per_thread);
      for (std::int64_t i = begin; i < end; ++i) acc = op(acc, T(source(i)));
    }

    const int slots = Interleaved::slots<Op>(size);
    scratch_view values(team.team_scratch(0), slots);
    values(Interleaved::slot<Op>(rank, size)) = acc;
    for (int j = size + rank; j < slots; j += size) values(Interleaved::slot<Op>(j, size)) = identity;
    team.team_barrier();
    const T total = Interleaved::reduce<Space>(team, values.data(), size, op);
    if (rank == 0) partials[team.league_rank()] = total;
  }
};

}  // namespace kprim::impl::team
