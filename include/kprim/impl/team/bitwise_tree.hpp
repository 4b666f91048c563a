#pragma once
// Team layer of Determinism::bitwise: the fixed tree over one tile's leaves, built in scratch.
//
// The order of operations is a function of n alone (docs/reproducibility.md):
// - a leaf is `leaf_size` consecutive elements (the last may be shorter), folded left to right;
// - leaves are combined by the pairwise tree over aligned power-of-two blocks: node (l, i) covers
//   leaves [i 2^l, (i + 1) 2^l) and is op(node (l-1, 2i), node (l-1, 2i+1)), or node (l-1, 2i)
//   alone when the right child starts past the end (no identity is ever combined in);
// - a scan gives leaf j the fold of the nodes that cover leaves [0, j), largest first, starting
//   from the exclusive scan's init (Blelloch's down-sweep yields exactly this), then runs through
//   the leaf's elements left to right.
// A tile is `tile_leaves` leaves, i.e. one aligned node of level `tile_levels`: teams of any size
// compute the same nodes, and drivers combine tiles with the same tree one level up.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::bitwise {

inline constexpr int tile_leaves = 256;
inline constexpr int tile_levels = 8;  // 2^8 = tile_leaves
/// Every level of a tile's tree in one array: level l (tile_leaves >> l nodes) starts at
/// level_offset(l); 256 + 128 + ... + 1 = 511 slots.
inline constexpr int tree_slots = 2 * tile_leaves;

KOKKOS_INLINE_FUNCTION constexpr int level_offset(int level) { return tree_slots - (tree_slots >> level); }

/// Nodes at `level` of a tree over `count` leaves.
KOKKOS_INLINE_FUNCTION constexpr int nodes_at(int count, int level) { return (count + (1 << level) - 1) >> level; }

/// op(get(first), ..., get(end - 1)), left to right, for first < end.
template <class T, class Get, class Op>
KOKKOS_FUNCTION T fold_leaf(std::int64_t first, std::int64_t end, const Get& get, const Op& op) {
  T value = get(first);
  for (std::int64_t i = first + 1; i < end; ++i) value = op(value, get(i));
  return value;
}

/// Leaves [0, tile_leaves) of a whole tile starting at element `begin`, each of `LeafSize`
/// elements folded left to right as fold_leaf does, by one thread: `Chains` leaves at a time, their
/// folds interleaved (independent chains: the same operations in the same order per leaf, so the
/// same bits, without waiting on one leaf's chain at a time). With up_sweep_whole / down_sweep_whole
/// it is the host's path (teams of one thread): 2-core VM, 2026-12-04, callgrind, OpenMP float Sum
/// at 2^20, instructions an element: the bitwise reduce 7.3 -> 1.9, the bitwise scan 29.2 -> 8.9.
template <int LeafSize, int Chains, class T, class Get, class Op>
KOKKOS_FUNCTION void fold_whole_leaves(T* leaves, std::int64_t begin, const Get& get, const Op& op) {
  static_assert(tile_leaves % Chains == 0);
  for (int j = 0; j < tile_leaves; j += Chains) {
    T value[Chains];
    for (int c = 0; c < Chains; ++c) value[c] = get(begin + std::int64_t(j + c) * LeafSize);
    for (int e = 1; e < LeafSize; ++e)
      for (int c = 0; c < Chains; ++c) value[c] = op(value[c], get(begin + std::int64_t(j + c) * LeafSize + e));
    for (int c = 0; c < Chains; ++c) leaves[j + c] = value[c];
  }
}

/// up_sweep by one thread over a whole tile (tile_leaves leaves): every node has both children.
template <class T, class Op>
KOKKOS_FUNCTION T up_sweep_whole(T* tree, const Op& op) {
  for (int level = 1; level <= tile_levels; ++level) {
    const T* below = tree + level_offset(level - 1);
    T* here = tree + level_offset(level);
    for (int i = 0; i < (tile_leaves >> level); ++i) here[i] = op(below[2 * i], below[2 * i + 1]);
  }
  return tree[level_offset(tile_levels)];
}

/// down_sweep by one thread over a whole tile with a seed (every node then has a prefix).
template <class T, class Op>
KOKKOS_FUNCTION void down_sweep_whole(const T* tree, T* prefix, const T& seed, const Op& op) {
  prefix[level_offset(tile_levels)] = seed;
  for (int level = tile_levels; level >= 1; --level) {
    const T* parents = prefix + level_offset(level);
    const T* siblings = tree + level_offset(level - 1);
    T* children = prefix + level_offset(level - 1);
    for (int p = 0; p < (tile_leaves >> level); ++p) {
      children[2 * p] = parents[p];
      children[2 * p + 1] = op(parents[p], siblings[2 * p]);
    }
  }
}

/// Builds levels 1 .. tile_levels of `tree` over the `count` (1 .. tile_leaves) leaf values in
/// level 0 and returns the root. The caller barriers after writing level 0; one barrier per level.
template <class Member, class T, class Op>
KOKKOS_FUNCTION T up_sweep(const Member& team, T* tree, int count, const Op& op) {
  for (int level = 1; level <= tile_levels; ++level) {
    const T* below = tree + level_offset(level - 1);
    T* here = tree + level_offset(level);
    const int below_count = nodes_at(count, level - 1);
    for (int i = team.team_rank(); i < nodes_at(count, level); i += team.team_size())
      here[i] = 2 * i + 1 < below_count ? op(below[2 * i], below[2 * i + 1]) : below[2 * i];
    team.team_barrier();
  }
  return tree[level_offset(tile_levels)];
}

/// Fills `prefix` (same layout as `tree`, after up_sweep) with every node's exclusive prefix: the
/// root gets `seed`, a left child its parent's prefix, a right child op(parent's prefix, left
/// sibling). Without a seed the nodes on the left edge have no prefix (their slots are left
/// unset) and a right child of such a node gets its left sibling alone. Level 0 then holds the
/// leaves' prefixes. One barrier per level, the last one included.
template <class Member, class T, class Op>
KOKKOS_FUNCTION void down_sweep(const Member& team, const T* tree, T* prefix, int count, const T& seed, bool has_seed,
                                const Op& op) {
  if (team.team_rank() == 0) prefix[level_offset(tile_levels)] = seed;
  team.team_barrier();
  for (int level = tile_levels; level >= 1; --level) {
    const T* parents = prefix + level_offset(level);
    const T* siblings = tree + level_offset(level - 1);
    T* children = prefix + level_offset(level - 1);
    for (int c = team.team_rank(); c < nodes_at(count, level - 1); c += team.team_size()) {
      const int parent = c / 2;
      const bool parent_has = has_seed || parent > 0;
      if (c % 2 == 0) {
        if (parent_has) children[c] = parents[parent];
      } else {
        children[c] = parent_has ? op(parents[parent], siblings[c - 1]) : siblings[c - 1];
      }
    }
    team.team_barrier();
  }
}

/// Pushes the node `value` of `level` onto a binary counter of completed aligned nodes (kept by
/// one thread), merging equal levels: fed the nodes of one level in order, the counter holds the
/// tree's nodes over the part seen so far.
template <class T, class Op>
KOKKOS_FUNCTION void push_node(T* values, int* levels, int& depth, T value, int level, const Op& op) {
  while (depth > 0 && levels[depth - 1] == level) {
    value = op(values[depth - 1], value);
    --depth;
    ++level;
  }
  values[depth] = value;
  levels[depth] = level;
  ++depth;
}

/// The node over everything pushed (depth >= 1): the counter's nodes folded from the smallest,
/// which is the carry rule of the tree for a partial last block.
template <class T, class Op>
KOKKOS_FUNCTION T collapse_nodes(const T* values, int depth, const Op& op) {
  T value = values[depth - 1];
  for (int d = depth - 2; d >= 0; --d) value = op(values[d], value);
  return value;
}

}  // namespace kprim::impl::bitwise
