#pragma once
// Team layer of Determinism::bitwise, scan: tile roots, and tiles scanned from their prefix with
// the tree of impl/team/bitwise_tree.hpp. LeafSize is 8 on the data and 1 on the levels above
// (tile roots, then roots of 256 tile roots, ...), so every level is the same tree.

#include <kprim/impl/team/bitwise_tree.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

/// Reads element i of a level above the data (tile roots and the like).
template <class T>
struct LevelValues {
  const T* values;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return values[i]; }
};

/// Writes element i of a level above the data.
template <class T>
struct LevelSink {
  T* values;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& value) const { values[i] = value; }
};

/// Writes element i of the scan's output View.
template <class Out>
struct ViewSink {
  Out out;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const typename Out::non_const_value_type& value) const {
    out(i) = value;
  }
};

/// Fills leaves [0, count) of `tree` for the tile starting at element `begin` and returns count.
template <int LeafSize, class T, class Member, class Source, class Op>
KOKKOS_FUNCTION int load_leaves(const Member& team, T* tree, const Source& source, std::int64_t begin,
                                std::int64_t n, const Op& op) {
  constexpr std::int64_t tile_size = std::int64_t(LeafSize) * bitwise::tile_leaves;
  const int count = int((Kokkos::min(n - begin, std::int64_t(tile_size)) + LeafSize - 1) / LeafSize);
  if (team.team_size() == 1 && n - begin >= tile_size) {  // a host thread, a whole tile: its leaves' chains interleaved
    bitwise::fold_whole_leaves<LeafSize, 8>(tree, begin, [&](std::int64_t i) { return T(source(i)); }, op);
    return count;
  }
  for (int j = team.team_rank(); j < count; j += team.team_size()) {
    const std::int64_t first = begin + std::int64_t(j) * LeafSize;
    tree[j] = bitwise::fold_leaf<T>(first, Kokkos::min(n, first + LeafSize),
                                    [&](std::int64_t i) { return T(source(i)); }, op);
  }
  team.team_barrier();
  return count;
}

/// roots[t] = the tree's node over tile t of source(0 .. n); teams walk the tiles grid-stride.
template <class Space, class T, class Source, class Op, int LeafSize>
struct BitwiseTileRoots {
  static constexpr std::int64_t tile_size = std::int64_t(LeafSize) * bitwise::tile_leaves;
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using values_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  std::int64_t n;
  T* roots;
  Op op;

  static std::size_t scratch_bytes() { return values_view::shmem_size(bitwise::tree_slots); }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    values_view tree(team.team_scratch(0), bitwise::tree_slots);
    const std::int64_t tiles = (n + tile_size - 1) / tile_size;
    for (std::int64_t t = team.league_rank(); t < tiles; t += team.league_size()) {
      const int count = load_leaves<LeafSize>(team, tree.data(), source, t * tile_size, n, op);
      // A whole tile's leaves are all there (count == tile_leaves): every node has both children.
      const T root = team.team_size() == 1 && count == bitwise::tile_leaves ? bitwise::up_sweep_whole(tree.data(), op)
                                                                            : bitwise::up_sweep(team, tree.data(), count, op);
      if (team.team_rank() == 0) roots[t] = root;
    }
  }
};

/// Scans source(0 .. n) into sink(i, value) tile by tile. Tile t starts from tile_prefixes[t]
/// (t > 0), or from `seed` when has_seed (t = 0), or from nothing. Inclusive: sink gets the value
/// after element i; exclusive: the value before it, and not at all when there is none (the
/// first element of an unseeded scan). Every element is read before it is written (in place is
/// fine). The thread that handles the last element writes the value after it to *total (if
/// given); for n = 0 that is the seed, or op's identity.
template <class Space, class T, class Source, class Sink, class Op, int LeafSize>
struct BitwiseScanTiles {
  static constexpr std::int64_t tile_size = std::int64_t(LeafSize) * bitwise::tile_leaves;
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using values_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  Sink sink;
  std::int64_t n;
  const T* tile_prefixes;
  T seed;
  bool has_seed;
  bool exclusive;
  T* total;
  Op op;

  static std::size_t scratch_bytes() { return 2 * values_view::shmem_size(bitwise::tree_slots); }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    values_view tree(team.team_scratch(0), bitwise::tree_slots);
    values_view prefix(team.team_scratch(0), bitwise::tree_slots);
    if (n == 0) {
      if (total && team.team_rank() == 0) *total = has_seed ? seed : identity_of<T>(op);
      return;
    }
    const std::int64_t tiles = (n + tile_size - 1) / tile_size;
    for (std::int64_t t = team.league_rank(); t < tiles; t += team.league_size()) {
      const std::int64_t begin = t * tile_size;
      const int count = load_leaves<LeafSize>(team, tree.data(), source, begin, n, op);
      const bool tile_has = has_seed || t > 0;
      if (team.team_size() == 1 && count == bitwise::tile_leaves && tile_has && begin + tile_size < n) {
        // A host thread on a whole tile that has a prefix, not the last one: the same nodes and
        // leaf chains without the team's bookkeeping, 8 leaves' chains interleaved.
        bitwise::up_sweep_whole(tree.data(), op);
        bitwise::down_sweep_whole(tree.data(), prefix.data(), t > 0 ? tile_prefixes[t] : seed, op);
        constexpr int chains = 8;
        for (int j = 0; j < count; j += chains) {
          T running[chains];
          for (int c = 0; c < chains; ++c) running[c] = prefix(j + c);
          for (int e = 0; e < LeafSize; ++e)
            for (int c = 0; c < chains; ++c) {
              const std::int64_t i = begin + std::int64_t(j + c) * LeafSize + e;
              const T x = T(source(i));
              if (exclusive) sink(i, running[c]);
              running[c] = op(running[c], x);
              if (!exclusive) sink(i, running[c]);
            }
        }
        continue;  // one thread: nothing to wait for before the next tile reuses the trees
      }
      bitwise::up_sweep(team, tree.data(), count, op);
      bitwise::down_sweep(team, tree.data(), prefix.data(), count, t > 0 ? tile_prefixes[t] : seed, tile_has, op);
      for (int j = team.team_rank(); j < count; j += team.team_size()) {
        bool has = tile_has || j > 0;
        T running = has ? prefix(j) : identity_of<T>(op);  // without a prefix it is never combined
        const std::int64_t first = begin + std::int64_t(j) * LeafSize;
        const std::int64_t end = Kokkos::min(n, first + LeafSize);
        for (std::int64_t i = first; i < end; ++i) {
          const T x = T(source(i));
          if (exclusive && has) sink(i, running);
          running = has ? op(running, x) : x;
          has = true;
          if (!exclusive) sink(i, running);
        }
        if (total && end == n) *total = running;
      }
      team.team_barrier();  // the next tile reuses both trees
    }
  }
};

}  // namespace kprim::impl::team
