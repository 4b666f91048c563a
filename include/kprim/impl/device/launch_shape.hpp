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

/// A non-owning reference to a callable scratch_bytes(team_size, items_per_thread), so that
/// fit_shape is compiled once (src/launch_shape.cpp) rather than at every call site.
class ScratchBytesRef {
 public:
  template <class F>
  ScratchBytesRef(const F& f)  // NOLINT: converts from any such callable, as std::function does
      : object_(&f), call_([](const void* object, int team_size, int items) -> std::size_t {
          return (*static_cast<const F*>(object))(team_size, items);
        }) {}
  std::size_t operator()(int team_size, int items) const { return call_(object_, team_size, items); }

 private:
  const void* object_;
  std::size_t (*call_)(const void*, int, int);
};

/// The shape from `defaults` and the user's tuning where given, checked against the space's limits
/// (`space_name`'s team size `max_team_size` and team scratch `scratch_max`), the defaults
/// shrunk to fit. Throws kprim::invalid_argument naming `function` for a tuning that cannot fit.
LaunchShape fit_shape(const char* function, const char* space_name, LaunchShape defaults, int max_team_size,
                      std::size_t scratch_max, const Tuning& tuning, ScratchBytesRef scratch_bytes);

/// The shape to launch `kernel` with: fit_shape with the space's defaults and limits for it.
/// `scratch_bytes(team_size, items)` gives the kernel's team scratch need.
template <class Space, class Kernel, class ScratchBytes>
LaunchShape choose_shape(const char* function, const Space& space, Primitive primitive, const Tuning& tuning,
                         const Kernel& kernel, const ScratchBytes& scratch_bytes) {
  const Kokkos::TeamPolicy<Space> probe(space, 1, 1);
  return fit_shape(function, Space::name(), default_shape(space, primitive),
                   probe.team_size_max(kernel, Kokkos::ParallelForTag{}), probe.scratch_size_max(0), tuning,
                   scratch_bytes);
}

/// Teams for one launch over `count` elements: one per tile, at most max_teams, at least one
/// (an empty input still produces its identity).
inline int teams_for(std::int64_t count, const LaunchShape& shape) {
  const std::int64_t tiles = (count + shape.tile() - 1) / shape.tile();
  return int(std::clamp<std::int64_t>(tiles, 1, shape.max_teams));
}

}  // namespace kprim::impl
