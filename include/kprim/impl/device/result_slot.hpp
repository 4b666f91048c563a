#pragma once
// Device layer: temporaries plus a place to write a rank-0 result the space may not reach.

#include <kprim/impl/device/temporary_storage.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

namespace kprim::impl {

/// Marks "no total wanted".
struct NoTotal {};

constexpr std::size_t round_up16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

/// Leases `temp_bytes` of temporaries for `function` (16-byte aligned) and runs launch(temporaries, target):
/// `target` points at the rank-0 View `result` when `space` can write it, else at a slot after
/// the temporaries whose value is then copied to `result` asynchronously on `space`. `result`
/// may be NoTotal (target = nullptr).
template <class T, class Space, class Result, class Launch>
void with_result_slot(const char* function, const Space& space, std::size_t temp_bytes, const Result& result, Launch launch) {
  constexpr bool wanted = !std::is_same_v<Result, NoTotal>;
  bool direct = true;
  if constexpr (wanted) direct = Kokkos::SpaceAccessibility<Space, typename Result::memory_space>::accessible;
  const std::size_t slot_offset = round_up16(temp_bytes);
  const auto temporaries = TemporaryStorage<Space>::lease(function, space, slot_offset + (direct ? 0 : round_up16(sizeof(T))));
  unsigned char* const base = temporaries.template as<unsigned char>();
  T* target = nullptr;
  if constexpr (wanted) target = direct ? result.data() : reinterpret_cast<T*>(base + slot_offset);
  launch(base, target);
  if constexpr (wanted) {
    if constexpr (!Kokkos::SpaceAccessibility<Space, typename Result::memory_space>::accessible)
      Kokkos::deep_copy(space, result, Kokkos::View<T, typename Space::memory_space, Kokkos::MemoryUnmanaged>(target));
  }
}

/// Sets `bytes` bytes at `data` (in Space's memory) to zero, asynchronously on `space`.
template <class Space>
void zero_bytes(const Space& space, unsigned char* data, std::size_t bytes) {
  Kokkos::deep_copy(space, Kokkos::View<unsigned char*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(data, bytes),
                    static_cast<unsigned char>(0));
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
