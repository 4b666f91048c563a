#pragma once
// Device layer of scan: the three-phase scan of any length (tiles, recursive scan of the tile
// totals, tile offsets added), with all temporaries in one buffer.

#include <kprim/impl/device/launch_shape.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/device/temporary_storage.hpp>
#include <kprim/impl/team/scan_tiles.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim::impl {

template <class Space, class T, class Op, class Tile = team::RakingTile>
class ThreePhaseScan {
 public:
  using memory_space = typename Space::memory_space;
  using level_view = Kokkos::View<T*, memory_space, Kokkos::MemoryUnmanaged>;

  ThreePhaseScan(const char* function, const Space& space, const LaunchShape& shape, const Op& op)
      : function_(function), space_(space), shape_(shape), op_(op) {}

  /// Elements of temporary storage a scan of n elements needs: the tile totals of every level
  /// of the recursion (n/tile + n/tile^2 + ... ).
  std::int64_t temp_size(std::int64_t n) const {
    std::int64_t size = 0;
    for (std::int64_t count = n; count > shape_.tile();) {
      count = (count + shape_.tile() - 1) / shape_.tile();
      size += count;
    }
    return size;
  }

  /// Scans in -> out (exclusive or inclusive) starting from `seed`; writes the total (seed
  /// included) to *total when total != nullptr. `temp` holds temp_size(n) elements.
  template <class In, class Out>
  void run(const In& in, const Out& out, std::int64_t n, bool exclusive, const T& seed, T* temp, T* total) const {
    const std::int64_t tiles = (n + shape_.tile() - 1) / shape_.tile();
    if (tiles <= 1) {
      if (n > 0 || total != nullptr) launch_tiles(in, out, n, exclusive, seed, total);
      return;
    }
    T* const tile_totals = temp;
    launch_tiles(in, out, n, exclusive, identity_of<T>(op_), tile_totals);
    const level_view offsets(tile_totals, tiles);
    run(offsets, offsets, tiles, /*exclusive=*/true, seed, temp + tiles, total);
    Kokkos::parallel_for(function_, policy(tiles, 0),
                         team::AddTileOffsets<Space, T, Out, Op>{out, n, shape_.tile(), tile_totals, op_});
  }

 private:
  Kokkos::TeamPolicy<Space> policy(std::int64_t tiles, std::size_t scratch) const {
    const int teams = int(std::clamp<std::int64_t>(tiles, 1, shape_.max_teams));
    return Kokkos::TeamPolicy<Space>(space_, teams, shape_.team_size).set_scratch_size(0, Kokkos::PerTeam(scratch));
  }

  template <class In, class Out>
  void launch_tiles(const In& in, const Out& out, std::int64_t n, bool exclusive, const T& seed, T* totals) const {
    using kernel = team::ScanTiles<Space, T, In, Out, Op, Tile>;
    const std::int64_t tiles = (n + shape_.tile() - 1) / shape_.tile();
    Kokkos::parallel_for(function_, policy(tiles, kernel::scratch_bytes(shape_.team_size, shape_.items_per_thread)),
                         kernel{in, out, n, shape_.items_per_thread, exclusive, seed, totals, op_});
  }

  const char* function_;
  Space space_;
  LaunchShape shape_;
  Op op_;
};

/// The whole scan call with tile algorithm `Tile`: shape, one temporary allocation, the three phases, and the optional
/// total into a rank-0 View of any memory space (copied asynchronously when not accessible).
template <class Tile, class Space, class In, class Out, class Op, class Total>
void scan_with(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
               const typename Out::non_const_value_type& seed, const Op& op, const Tuning& tuning,
               const Total& total) {
  using T = typename Out::non_const_value_type;
  using memory_space = typename Space::memory_space;
  using probe_kernel = team::ScanTiles<Space, T, In, Out, Op, Tile>;
  const std::int64_t n = std::int64_t(in.extent(0));

  const LaunchShape shape =
      choose_shape(function, space, Primitive::scan, tuning, probe_kernel{in, out, n, 1, exclusive, seed, nullptr, op},
                   [](int team_size, int items) { return probe_kernel::scratch_bytes(team_size, items); });
  if (shape.tile() < 2)  // the recursion over tile totals would not shrink
    throw_invalid_argument(function, "a scan tile must hold at least 2 elements (team_size * items_per_thread = " +
                                         std::to_string(shape.tile()) + ")");
  const ThreePhaseScan<Space, T, Op, Tile> scan(function, space, shape, op);

  constexpr bool wants_total = !std::is_same_v<Total, NoTotal>;
  bool total_direct = true;
  if constexpr (wants_total)
    total_direct = Kokkos::SpaceAccessibility<Space, typename Total::memory_space>::accessible;
  const std::int64_t levels_size = scan.temp_size(n);
  const std::int64_t temp_size = levels_size + (total_direct ? 0 : 1);
  const auto temporaries = TemporaryStorage<Space>::lease(function, space, temp_size * sizeof(T));
  T* const temp = temporaries.template as<T>();
  T* total_ptr = nullptr;
  if constexpr (wants_total) total_ptr = total_direct ? total.data() : temp + levels_size;

  scan.run(in, out, n, exclusive, seed, temp, total_ptr);

  if constexpr (wants_total) {
    if constexpr (!Kokkos::SpaceAccessibility<Space, typename Total::memory_space>::accessible)
      Kokkos::deep_copy(space, total, Kokkos::View<T, memory_space, Kokkos::MemoryUnmanaged>(total_ptr));
  }
}

/// The tile algorithm of each three-phase scan (decoupled_lookback has its own driver).
template <ScanAlgorithm Algorithm>
struct TileOf;
template <> struct TileOf<ScanAlgorithm::three_phase> { using type = team::RakingTile; };
template <> struct TileOf<ScanAlgorithm::hillis_steele> { using type = team::HillisSteeleTile; };
template <> struct TileOf<ScanAlgorithm::blelloch> { using type = team::BlellochTile; };
template <> struct TileOf<ScanAlgorithm::brent_kung> { using type = team::BrentKungTile; };

}  // namespace kprim::impl
