#pragma once
// Team layer of the three-phase scan: tier 1 (scan each tile) and tier 3 (add tile offsets).

#include <kprim/impl/team/blelloch_scan.hpp>
#include <kprim/impl/team/blelloch_tile_scan.hpp>
#include <kprim/impl/team/brent_kung_scan.hpp>
#include <kprim/impl/team/hillis_steele_scan.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::team {

KOKKOS_INLINE_FUNCTION constexpr int next_power_of_two(int value) {
  int power = 1;
  while (power < value) power *= 2;
  return power;
}

/// The three_phase tile (raking): a tile is loaded coalesced; thread r folds its own run of
/// items_per_thread elements; Blelloch scans the per-thread folds; each thread rescans its run
/// from its prefix; the tile is stored coalesced.
struct RakingTile {
  KOKKOS_INLINE_FUNCTION static constexpr std::int64_t scratch_elements(int team_size, int items_per_thread) {
    if (std::int64_t(team_size) * items_per_thread > (1 << 29)) return std::int64_t(1) << 40;  // too big anyway
    return padded_size(team_size * items_per_thread) + padded_size(next_power_of_two(team_size)) + 1;
  }

  template <class Member, class T, class In, class Out, class Op>
  KOKKOS_INLINE_FUNCTION static T scan(const Member& team, T* scratch, const In& in, const Out& out,
                                       std::int64_t begin, int count, int tile, bool exclusive, const T& seed,
                                       const Op& op) {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const int items_per_thread = tile / size;
    int folds = 1;  // Blelloch needs a power of two; the extra slots hold the identity
    while (folds < size) folds *= 2;
    T* const elements = scratch;
    T* const partials = scratch + padded_size(tile);
    T* const total = partials + padded_size(folds);
    const T identity = identity_of<T>(op);

    for (int k = rank; k < count; k += size) elements[padded(k)] = T(in(begin + k));
    team.team_barrier();

    const int first = rank * items_per_thread;
    const int last = Kokkos::min(count, first + items_per_thread);
    T fold = identity;
    for (int j = first; j < last; ++j) fold = op(fold, elements[padded(j)]);
    partials[padded(rank)] = fold;
    for (int j = size + rank; j < folds; j += size) partials[padded(j)] = identity;
    team.team_barrier();

    const T tile_total = blelloch_exclusive_scan(team, partials, folds, total, op);
    T running = op(seed, partials[padded(rank)]);
    for (int j = first; j < last; ++j) {
      const T value = elements[padded(j)];
      if (exclusive) {
        elements[padded(j)] = running;
        running = op(running, value);
      } else {
        running = op(running, value);
        elements[padded(j)] = running;
      }
    }
    team.team_barrier();

    for (int k = rank; k < count; k += size) out(begin + k) = elements[padded(k)];
    return tile_total;
  }
};

/// Tier 1: each team scans whole tiles (grid-stride) with the tile algorithm `Tile` (RakingTile,
/// HillisSteeleTile, BlellochTile, BrentKungTile: one file each). `seed` starts the first
/// element (identity for all tiles but a lone one); when `tile_totals` is set, tile t's total
/// (seed included) goes to tile_totals[t]. In-place safe: every Tile reads its tile whole
/// before writing any of it.
template <class Space, class T, class In, class Out, class Op, class Tile = RakingTile>
struct ScanTiles {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  In in;
  Out out;
  std::int64_t n;
  int items_per_thread;
  bool exclusive;
  T seed;
  T* tile_totals;
  Op op;

  static std::size_t scratch_bytes(int team_size, int items_per_thread) {
    const std::int64_t elements = Tile::scratch_elements(team_size, items_per_thread);
    if (elements > (std::int64_t(1) << 32)) return std::size_t(-1);  // no scratch is that big
    return scratch_view::shmem_size(std::size_t(elements));
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int size = team.team_size();
    const int tile = size * items_per_thread;
    scratch_view scratch(team.team_scratch(0), Tile::scratch_elements(size, items_per_thread));

    // An empty input still has one (empty) tile, so a requested total gets written.
    const std::int64_t num_tiles = n == 0 ? 1 : (n + tile - 1) / tile;
    for (std::int64_t t = team.league_rank(); t < num_tiles; t += team.league_size()) {
      const std::int64_t begin = t * tile;
      const int count = int(Kokkos::min(std::int64_t(tile), n - begin));
      const T tile_total = Tile::scan(team, scratch.data(), in, out, begin, count, tile, exclusive, seed, op);
      if (team.team_rank() == 0 && tile_totals != nullptr) tile_totals[t] = op(seed, tile_total);
      team.team_barrier();  // the next tile reuses the scratch
    }
  }
};

/// Tier 3: out(i) = op(offsets[tile of i], out(i)) for every tile (grid-stride over tiles).
template <class Space, class T, class Out, class Op>
struct AddTileOffsets {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;

  Out out;
  std::int64_t n;
  std::int64_t tile;
  const T* offsets;
  Op op;

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const std::int64_t num_tiles = (n + tile - 1) / tile;
    for (std::int64_t t = team.league_rank(); t < num_tiles; t += team.league_size()) {
      const T offset = offsets[t];
      const std::int64_t end = Kokkos::min(n, (t + 1) * tile);
      for (std::int64_t i = t * tile + team.team_rank(); i < end; i += team.team_size())
        out(i) = op(offset, T(out(i)));
    }
  }
};

}  // namespace kprim::impl::team
