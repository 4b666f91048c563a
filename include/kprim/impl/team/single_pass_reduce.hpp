#pragma once
// Team layer of the single-pass reduce: each team folds one contiguous chunk, and the last team
// to finish folds the teams' partials, so the whole reduce is one launch.

#include <kprim/impl/team/pairwise_tree.hpp>
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Team k folds elements [k * chunk, (k + 1) * chunk) of `source`: for commutative ops thread r
/// takes elements r, r + team_size, ... (neighbouring threads read neighbouring elements), for
/// the others a contiguous part, so the order is kept. Each thread folds with independent
/// chains (thread::fold_run), the team with an order-preserving pairwise tree. Rank 0 stores the
/// partial, fences, and takes a ticket; the team holding the last ticket folds all partials in
/// team order into *result and resets the ticket.
template <class Space, class T, class Source, class Op>
struct SinglePassReduce {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using flag_view = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  std::int64_t chunk;
  T* partials;
  int* ticket;
  T* result;
  Op op;

  static std::size_t scratch_bytes(int team_size) {
    return 2 * scratch_view::shmem_size(team_size) + flag_view::shmem_size(1);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const int league = team.league_size();
    const std::int64_t begin = Kokkos::min(n, team.league_rank() * chunk);
    const std::int64_t end = Kokkos::min(n, begin + chunk);

    T value;
    if constexpr (is_commutative_v<Op>) {
      const std::int64_t first = begin + rank;
      const std::int64_t count = first < end ? (end - first + size - 1) / size : 0;
      value = thread::fold_run<T>(0, count, [&](std::int64_t j) { return T(source(first + j * size)); }, op);
    } else {
      const std::int64_t part = (end - begin + size - 1) / size;
      const std::int64_t first = Kokkos::min(end, begin + rank * part);
      value = thread::fold_run<T>(first, Kokkos::min(end, first + part),
                                  [&](std::int64_t i) { return T(source(i)); }, op);
    }

    scratch_view values(team.team_scratch(0), size);
    scratch_view spare(team.team_scratch(0), size);
    flag_view last(team.team_scratch(0), 1);
    values(rank) = value;
    team.team_barrier();
    const T partial = pairwise_tree(team, values.data(), spare.data(), size, op);
    if (league == 1) {
      if (rank == 0) *result = partial;
      return;
    }
    if (rank == 0) {
      partials[team.league_rank()] = partial;
      Kokkos::memory_fence();  // the partial is visible before the ticket counts it
      last(0) = Kokkos::atomic_fetch_add(ticket, 1) == league - 1;
    }
    team.team_barrier();
    if (!last(0)) return;
    Kokkos::memory_fence();
    // Thread r folds a contiguous run of partials (order kept), then the tree combines the runs.
    const int part = (league + size - 1) / size;
    const int first = Kokkos::min(league, rank * part);
    const int stop = Kokkos::min(league, first + part);
    T run = identity_of<T>(op);
    for (int k = first; k < stop; ++k) run = op(run, Kokkos::atomic_load(partials + k));
    values(rank) = run;
    team.team_barrier();
    const T total = pairwise_tree(team, values.data(), spare.data(), size, op);
    if (rank == 0) {
      *result = total;
      *ticket = 0;
    }
  }
};

}  // namespace kprim::impl::team
