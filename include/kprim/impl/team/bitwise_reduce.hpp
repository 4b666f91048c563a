#pragma once
// Team layer of Determinism::bitwise, reduce: the tree of impl/team/bitwise_tree.hpp over the
// whole input in one launch, whatever the team size or number of teams.

#include <kprim/impl/team/bitwise_tree.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Team g reduces tiles [g * tiles_per_team, ...) (a power of two of them, so its result is one
/// aligned node of the tree) through a binary counter, and stores that node; the team holding
/// the last ticket reduces the teams' nodes with the same tree, 256 at a time, into *result.
/// LeafSize 8 for data; n counts elements.
template <class Space, class T, class Source, class Op>
struct BitwiseReduce {
  static constexpr int leaf_size = 8;
  static constexpr std::int64_t tile_size = std::int64_t(leaf_size) * bitwise::tile_leaves;
  static constexpr int max_depth = 64;

  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using values_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using ints_view = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  std::int64_t tiles_per_team;
  T* partials;
  int* ticket;
  T* result;
  Op op;

  static std::size_t scratch_bytes() {
    return values_view::shmem_size(bitwise::tree_slots) + values_view::shmem_size(max_depth) +
           ints_view::shmem_size(max_depth + 1);
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    values_view tree(team.team_scratch(0), bitwise::tree_slots);
    values_view counter(team.team_scratch(0), max_depth);
    ints_view counter_levels(team.team_scratch(0), max_depth + 1);  // the last slot: "this team is last"
    const int rank = team.team_rank();
    const int size = team.team_size();
    const int league = team.league_size();
    int depth = 0;  // the counter's depth, kept by rank 0

    if (n == 0) {
      if (rank == 0) *result = identity_of<T>(op);
      return;
    }
    const std::int64_t tiles = (n + tile_size - 1) / tile_size;
    const std::int64_t first_tile = team.league_rank() * tiles_per_team;
    const std::int64_t end_tile = Kokkos::min(tiles, first_tile + tiles_per_team);
    for (std::int64_t t = first_tile; t < end_tile; ++t) {
      const std::int64_t begin = t * tile_size;
      const int leaves = int((Kokkos::min(n - begin, std::int64_t(tile_size)) + leaf_size - 1) / leaf_size);
      if (size == 1 && n - begin >= tile_size) {  // a host thread, a whole tile: chains interleaved, no team bookkeeping
        bitwise::fold_whole_leaves<leaf_size, 8>(tree.data(), begin, [&](std::int64_t i) { return T(source(i)); }, op);
        bitwise::push_node(counter.data(), counter_levels.data(), depth, bitwise::up_sweep_whole(tree.data(), op), 0, op);
        continue;
      }
      for (int j = rank; j < leaves; j += size) {
        const std::int64_t first = begin + std::int64_t(j) * leaf_size;
        tree(j) = bitwise::fold_leaf<T>(first, Kokkos::min(n, first + leaf_size),
                                        [&](std::int64_t i) { return T(source(i)); }, op);
      }
      team.team_barrier();
      const T root = bitwise::up_sweep(team, tree.data(), leaves, op);
      if (rank == 0) bitwise::push_node(counter.data(), counter_levels.data(), depth, root, 0, op);
    }
    if (league == 1) {
      if (rank == 0) *result = bitwise::collapse_nodes(counter.data(), depth, op);
      return;
    }
    if (rank == 0) {
      partials[team.league_rank()] = bitwise::collapse_nodes(counter.data(), depth, op);
      Kokkos::memory_fence();  // the node is visible before the ticket counts it
      counter_levels(max_depth) = Kokkos::atomic_fetch_add(ticket, 1) == league - 1;
    }
    team.team_barrier();
    if (!counter_levels(max_depth)) return;
    Kokkos::memory_fence();
    // The teams' nodes are aligned nodes of one level: the tree goes on over them, 256 at a time.
    depth = 0;
    for (int block = 0; block < league; block += bitwise::tile_leaves) {
      const int count = Kokkos::min(int(bitwise::tile_leaves), league - block);
      for (int j = rank; j < count; j += size) tree(j) = Kokkos::atomic_load(partials + block + j);
      team.team_barrier();
      const T root = bitwise::up_sweep(team, tree.data(), count, op);
      if (rank == 0) bitwise::push_node(counter.data(), counter_levels.data(), depth, root, 0, op);
    }
    if (rank == 0) {
      *result = bitwise::collapse_nodes(counter.data(), depth, op);
      *ticket = 0;
    }
  }
};

}  // namespace kprim::impl::team
