#pragma once
// Device layer of Determinism::bitwise: the fixed-order tree of impl/team/bitwise_tree.hpp over
// the whole input. Teams, tiles per team and launches change with the space and the tuning; the
// nodes they compute do not, so neither do the bits.

#include <kprim/impl/device/launch_shape.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/team/bitwise_reduce.hpp>
#include <kprim/impl/team/bitwise_scan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kprim::impl {

namespace bitwise_detail {

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

inline std::int64_t next_power_of_two(std::int64_t value) {
  std::int64_t power = 1;
  while (power < value) power *= 2;
  return power;
}

/// The user's team_size and max_teams, checked; items_per_thread does not apply (tiles are fixed).
template <class Space, class Kernel>
LaunchShape shape(const char* function, const Space& space, Primitive primitive, const Tuning& tuning,
                  const Kernel& probe, std::size_t scratch_bytes) {
  return choose_shape(function, space, primitive, Tuning{tuning.team_size, 0, tuning.max_teams}, probe,
                      [scratch_bytes](int, int) { return scratch_bytes; });
}

}  // namespace bitwise_detail

/// One launch of team::BitwiseReduce: each team a power of two of tiles (one aligned node of the
/// tree), the last team to finish the nodes above; temporaries: a ticket and one node per team.
template <class Space, class Source, class Op, class Result>
void bitwise_reduce_into(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                         const Result& result, const Tuning& tuning) {
  using T = typename Result::non_const_value_type;
  using kernel = team::BitwiseReduce<Space, T, Source, Op>;
  const kernel probe{source, n, 1, nullptr, nullptr, nullptr, op};
  const LaunchShape shape =
      bitwise_detail::shape(function, space, Primitive::reduce, tuning, probe, kernel::scratch_bytes());
  const std::int64_t tiles = std::max<std::int64_t>(1, bitwise_detail::ceil_div(n, kernel::tile_size));
  const std::int64_t tiles_per_team = bitwise_detail::next_power_of_two(bitwise_detail::ceil_div(tiles, shape.max_teams));
  const int teams = int(bitwise_detail::ceil_div(tiles, tiles_per_team));
  launch_with_ticket<T>(function, space, teams, shape.team_size, kernel::scratch_bytes(), result,
                        [&](T* partials, int* ticket, T* target) {
                          return kernel{source, n, tiles_per_team, partials, ticket, target, op};
                        });
}

/// The bitwise scan in passes: the data's tile roots, their roots 256 at a time up to one tile,
/// every level's exclusive prefixes top-down (each level's tiles start from the prefixes of the
/// level above), then the data's tiles from theirs. Temporaries: roots and prefixes per level.
template <class Space, class In, class Out, class Op, class Total>
void bitwise_scan_into(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                       const typename Out::non_const_value_type& seed, const Op& op, const Tuning& tuning,
                       const Total& total) {
  using T = typename Out::non_const_value_type;
  using data_scan = team::BitwiseScanTiles<Space, T, In, team::ViewSink<Out>, Op, 8>;
  using data_roots = team::BitwiseTileRoots<Space, T, In, Op, 8>;
  using level_scan = team::BitwiseScanTiles<Space, T, team::LevelValues<T>, team::LevelSink<T>, Op, 1>;
  using level_roots = team::BitwiseTileRoots<Space, T, team::LevelValues<T>, Op, 1>;
  const std::int64_t n = std::int64_t(in.extent(0));
  const data_scan probe{in, {out}, n, nullptr, seed, exclusive, exclusive, nullptr, op};
  const std::size_t scratch = data_scan::scratch_bytes();
  const LaunchShape shape = bitwise_detail::shape(function, space, Primitive::scan, tuning, probe, scratch);

  // counts[k]: values at level k (level 0: one root per data tile), while a level has > 1 tile.
  std::vector<std::int64_t> counts;
  std::vector<std::size_t> offsets;  // roots of level k at offsets[k], prefixes after them
  std::size_t bytes = 0;
  for (std::int64_t count = bitwise_detail::ceil_div(n, data_scan::tile_size); count > 1;
       count = bitwise_detail::ceil_div(count, level_scan::tile_size)) {
    counts.push_back(count);
    offsets.push_back(bytes);
    bytes += 2 * round_up16(std::size_t(count) * sizeof(T));
  }
  const auto launch = [&](const auto& kernel, std::int64_t tiles, std::size_t kernel_scratch) {
    const int teams = int(std::clamp<std::int64_t>(tiles, 1, shape.max_teams));
    Kokkos::parallel_for(function,
                         Kokkos::TeamPolicy<Space>(space, teams, shape.team_size)
                             .set_scratch_size(0, Kokkos::PerTeam(kernel_scratch)),
                         kernel);
  };
  with_result_slot<T>(function, space, bytes, total, [&](unsigned char* temp, T* target) {
    const auto roots = [&](std::size_t k) { return reinterpret_cast<T*>(temp + offsets[k]); };
    const auto prefixes = [&](std::size_t k) {
      return reinterpret_cast<T*>(temp + offsets[k] + round_up16(std::size_t(counts[k]) * sizeof(T)));
    };
    const std::size_t levels = counts.size();
    for (std::size_t k = 0; k < levels; ++k) {
      if (k == 0)
        launch(data_roots{in, n, roots(0), op}, counts[0], data_roots::scratch_bytes());
      else
        launch(level_roots{{roots(k - 1)}, counts[k - 1], roots(k), op}, counts[k], level_roots::scratch_bytes());
    }
    for (std::size_t k = levels; k-- > 0;) {
      const T* above = k + 1 < levels ? prefixes(k + 1) : nullptr;
      launch(level_scan{{roots(k)}, {prefixes(k)}, counts[k], above, seed, exclusive, true, nullptr, op},
             bitwise_detail::ceil_div(counts[k], level_scan::tile_size), scratch);
    }
    launch(data_scan{in, {out}, n, levels > 0 ? prefixes(0) : nullptr, seed, exclusive, exclusive, target, op},
           bitwise_detail::ceil_div(n, data_scan::tile_size), scratch);
  });
}

}  // namespace kprim::impl
