#pragma once
// Device layer: temporaries plus a place to write a rank-0 result the space may not reach.

#include <kprim/impl/device/temporary_storage.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace kprim::impl {

/// Marks "no total wanted".
struct NoTotal {};

constexpr std::size_t round_up16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

/// Leases `temp_bytes` of temporaries for `function` (16-byte aligned) and runs launch(temporaries, target):
/// `target` points at the rank-0 View `result` when `space` can write it, else at a slot after
/// the temporaries whose value is then copied to `result` asynchronously on `space`. `result`
/// may be NoTotal (target = nullptr). With `state_bytes` > 0 it also leases the instance's zeroed
/// state (TemporaryStorage) and runs launch(temporaries, target, state); with `tiles` it leases the
/// tile state and runs launch(temporaries, target, tile_state).
template <class T, class Space, class Result, class Launch>
void with_result_slot(const char* function, const Space& space, std::size_t temp_bytes, const Result& result, Launch launch,
                      std::size_t state_bytes = 0, TileStateNeed tiles = {}) {
  constexpr bool wanted = !std::is_same_v<Result, NoTotal>;
  bool direct = true;
  if constexpr (wanted) direct = Kokkos::SpaceAccessibility<Space, typename Result::memory_space>::accessible;
  const std::size_t slot_offset = round_up16(temp_bytes);
  const auto temporaries = TemporaryStorage<Space>::lease(
      function, space, slot_offset + (direct ? 0 : round_up16(sizeof(T))), state_bytes, tiles);
  unsigned char* const base = temporaries.template as<unsigned char>();
  T* target = nullptr;
  if constexpr (wanted) target = direct ? result.data() : reinterpret_cast<T*>(base + slot_offset);
  if constexpr (std::is_invocable_v<Launch&, unsigned char*, T*, TileState>)
    launch(base, target, temporaries.tile_state());
  else if constexpr (std::is_invocable_v<Launch&, unsigned char*, T*, unsigned char*>)
    launch(base, target, temporaries.state());
  else
    launch(base, target);
  if constexpr (wanted) {
    if constexpr (!Kokkos::SpaceAccessibility<Space, typename Result::memory_space>::accessible)
      Kokkos::deep_copy(space, result, Kokkos::View<T, typename Space::memory_space, Kokkos::MemoryUnmanaged>(target));
  }
}

/// Runs write_into(result) with a rank-0 View of T that `space`'s kernels can write and the host
/// can read, fences `space` (the fence names `function`) and returns the value. Where `space`
/// cannot write host memory the View is a per-instance slot in Kokkos::SharedHostPinnedSpace, so
/// the last kernel stores the value straight into host memory and no device-to-host copy is
/// enqueued. H100, 2026-11-23, kprim-bench float reduce 2^12 / 2^20, median us: value via a copy
/// into the caller's variable 15.3 / 24.4, via the pinned slot 12.9 / 15.2, kernels alone 11.0 / 13.0.
template <class T, class Space, class WriteInto>
T value_on_host(const char* function, const Space& space, WriteInto write_into) {
  const std::string fence_label = std::string(function) + ": value to host";
  if constexpr (!Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible &&
                Kokkos::SpaceAccessibility<Space, PinnedHostSpace>::accessible &&
                Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, PinnedHostSpace>::accessible) {
    // The lease keeps other host threads off the slot until the value is read.
    const auto slot = TemporaryStorage<Space, PinnedHostSpace>::lease(function, space, sizeof(T));
    T* const value = slot.template as<T>();
    write_into(Kokkos::View<T, PinnedHostSpace, Kokkos::MemoryUnmanaged>(value));
    space.fence(fence_label);
    return *value;
  } else {
    T value{};
    write_into(Kokkos::View<T, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&value));
    space.fence(fence_label);
    return value;
  }
}

/// One launch of `teams` teams of `team_size` threads (`scratch` bytes each) running
/// kernel_for(partials, ticket, target), over temporaries holding a zeroed ticket and one partial
/// per team: the layout of the one-launch reduces whose last team to finish folds the partials.
template <class T, class Space, class Result, class KernelFor>
void launch_with_ticket(const char* function, const Space& space, int teams, int team_size, std::size_t scratch,
                        const Result& result, KernelFor kernel_for) {
  const std::size_t ticket_bytes = 16;
  with_result_slot<T>(function, space, ticket_bytes + std::size_t(teams) * sizeof(T), result, [&](unsigned char* temp, T* target) {
    int* const ticket = reinterpret_cast<int*>(temp);
    if (teams > 1) zero_bytes(space, temp, ticket_bytes);
    Kokkos::parallel_for(function,
                         Kokkos::TeamPolicy<Space>(space, teams, team_size).set_scratch_size(0, Kokkos::PerTeam(scratch)),
                         kernel_for(reinterpret_cast<T*>(temp + ticket_bytes), ticket, target));
  });
}

}  // namespace kprim::impl
