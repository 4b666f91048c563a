#include <kprim/impl/device/launch_shape.hpp>

#include <string>

namespace kprim::impl {

LaunchShape fit_shape(const char* function, const char* space_name, LaunchShape shape, int max_team_size,
                      std::size_t scratch_max, const Tuning& tuning, ScratchBytesRef scratch_bytes) {
  if (tuning.team_size < 0 || tuning.items_per_thread < 0 || tuning.max_teams < 0)
    throw_invalid_argument(function, "tuning values must be >= 0 (0 = automatic), got team_size " +
                                         std::to_string(tuning.team_size) + ", items_per_thread " +
                                         std::to_string(tuning.items_per_thread) + ", max_teams " +
                                         std::to_string(tuning.max_teams));
  if (tuning.team_size > 0) {
    if (tuning.team_size > max_team_size)
      throw_invalid_argument(function, "team_size " + std::to_string(tuning.team_size) + " exceeds the maximum " +
                                           std::to_string(max_team_size) + " of " + space_name);
    shape.team_size = tuning.team_size;
  } else {
    shape.team_size = std::min(shape.team_size, max_team_size);
  }
  if (tuning.items_per_thread > 0) shape.items_per_thread = tuning.items_per_thread;
  if (tuning.max_teams > 0) shape.max_teams = tuning.max_teams;

  while (scratch_bytes(shape.team_size, shape.items_per_thread) > scratch_max) {
    if (tuning.items_per_thread > 0 || shape.items_per_thread == 1)
      throw_invalid_argument(function, "a tile of " + std::to_string(shape.tile()) + " elements needs " +
                                           std::to_string(scratch_bytes(shape.team_size, shape.items_per_thread)) +
                                           " bytes of team scratch; " + space_name + " allows " +
                                           std::to_string(scratch_max));
    shape.items_per_thread /= 2;
  }
  return shape;
}

}  // namespace kprim::impl
