#pragma once
// Device layer: how big teams and tiles are, per execution space, and checks of user tuning.

#include <kprim/impl/cuda/trait.hpp>  // Primitive
#include <kprim/impl/validate.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim::impl {

/// Spaces whose memory is the host's: teams there are OS threads, so one thread per team with
/// a long contiguous run each beats many threads meeting at barriers.
template <class Space>
inline constexpr bool is_host_space_v = std::is_same_v<typename Space::memory_space, Kokkos::HostSpace>;

struct LaunchShape {
  int team_size;
  int items_per_thread;
  int max_teams;
  std::int64_t tile() const { return std::int64_t(team_size) * items_per_thread; }
};

// Defaults of the portable kernels. Device: 256 threads (8 warps) per team; a reduce tile of
// 4096 elements and a scan tile of 2048 (its scratch holds the whole tile). One wave of teams
// (concurrency / team size) keeps every SM busy without a tail of idle ones.
template <class Space>
LaunchShape default_shape(const Space& space, Primitive primitive) {
  if constexpr (is_host_space_v<Space>) {
    return {1, 4096, std::max(1, space.concurrency())};
  } else {
    const int team_size = 256;
    return {team_size, primitive == Primitive::reduce ? 16 : 8, std::max(1, space.concurrency() / team_size)};
  }
}

/// The shape to launch `kernel` with: the user's tuning where given (checked against the space's
/// limits), the space's defaults otherwise (shrunk to fit). `scratch_bytes(team_size, items)`
/// gives the kernel's team scratch need.
template <class Space, class Kernel, class ScratchBytes>
LaunchShape choose_shape(const char* function, const Space& space, Primitive primitive, const Tuning& tuning,
                         const Kernel& kernel, ScratchBytes scratch_bytes) {
  if (tuning.team_size < 0 || tuning.items_per_thread < 0 || tuning.max_teams < 0)
    throw_invalid_argument(function, "tuning values must be >= 0 (0 = automatic), got team_size " +
                                         std::to_string(tuning.team_size) + ", items_per_thread " +
                                         std::to_string(tuning.items_per_thread) + ", max_teams " +
                                         std::to_string(tuning.max_teams));
  LaunchShape shape = default_shape(space, primitive);
  const Kokkos::TeamPolicy<Space> probe(space, 1, 1);
  const int max_team_size = probe.team_size_max(kernel, Kokkos::ParallelForTag{});
  if (tuning.team_size > 0) {
    if (tuning.team_size > max_team_size)
      throw_invalid_argument(function, "team_size " + std::to_string(tuning.team_size) + " exceeds the maximum " +
                                           std::to_string(max_team_size) + " of " + Space::name());
    shape.team_size = tuning.team_size;
  } else {
    shape.team_size = std::min(shape.team_size, max_team_size);
  }
  if (tuning.items_per_thread > 0) shape.items_per_thread = tuning.items_per_thread;
  if (tuning.max_teams > 0) shape.max_teams = tuning.max_teams;

  const std::size_t scratch_max = probe.scratch_size_max(0);
  while (scratch_bytes(shape.team_size, shape.items_per_thread) > scratch_max) {
    if (tuning.items_per_thread > 0 || shape.items_per_thread == 1)
      throw_invalid_argument(function, "a tile of " + std::to_string(shape.tile()) + " elements needs " +
                                           std::to_string(scratch_bytes(shape.team_size, shape.items_per_thread)) +
                                           " bytes of team scratch; " + Space::name() + " allows " +
                                           std::to_string(scratch_max));
    shape.items_per_thread /= 2;
  }
  return shape;
}

/// Teams for one launch over `count` elements: one per tile, at most max_teams, at least one
/// (an empty input still produces its identity).
inline int teams_for(std::int64_t count, const LaunchShape& shape) {
  const std::int64_t tiles = (count + shape.tile() - 1) / shape.tile();
  return int(std::clamp<std::int64_t>(tiles, 1, shape.max_teams));
}

}  // namespace kprim::impl
