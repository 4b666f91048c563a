#pragma once
// Device layer of the single-pass algorithms (portable): reduce in one launch, and the scan with
// decoupled look-back. The hand-written CUDA versions (impl/cuda) follow the same plan.

#include <kprim/impl/device/launch_shape.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/team/lookback_scan.hpp>
#include <kprim/impl/team/single_pass_reduce.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim::impl {

/// One launch of team::SinglePassReduce: one wave of teams (the shape's max_teams), each a
/// contiguous chunk; temporaries: a ticket and one partial per team.
template <class Space, class Source, class Op, class Result>
void single_pass_reduce_into(const char* function, const Space& space, std::int64_t n, const Source& source,
                             const Op& op, const Result& result, const Tuning& tuning) {
  using T = typename Result::non_const_value_type;
  using kernel = team::SinglePassReduce<Space, T, Source, Op>;
  const kernel probe{source, n, 1, nullptr, nullptr, nullptr, op};
  const LaunchShape shape = choose_shape(function, space, Primitive::reduce, tuning, probe,
                                         [](int team_size, int) { return kernel::scratch_bytes(team_size); });
  const int teams = teams_for(n, shape);
  const std::int64_t chunk = (n + teams - 1) / teams;
  launch_with_ticket<T>(function, space, teams, shape.team_size, kernel::scratch_bytes(shape.team_size), result,
                        [&](T* partials, int* ticket, T* target) {
                          return kernel{source, n, chunk, partials, ticket, target, op};
                        });
}

/// Elements per tile of the host look-back scan (a team of one thread per tile; a tile is folded,
/// then rescanned from L2 and written): for arithmetic types 256 KiB of T, but at least 8 tiles a
/// thread down to 16384 elements, 16 KiB of other types. Fewer tiles mean less look-back per
/// element. 2-core AMD EPYC VM, OpenMP, 2026-11-28, inclusive scan, 16384 -> 256 KiB tiles: int32
/// 2^20 / 2^22 / 2^24 us 144 -> 138, 851-889 -> 797-802, 3817-3890 -> 3704-3769 (int64 alike;
/// perf_tests/results/README.md, "Host scans: larger tiles, more chains"; 16384 had been the best
/// of 1024-65536 on 2026-11-23, before the scans moved in vectors).
template <class T>
std::int64_t host_scan_tile(std::int64_t n, int threads) {
  if constexpr (!std::is_arithmetic_v<T>) {
    return sizeof(T) >= 16384 ? 1 : std::int64_t(16384 / sizeof(T));
  } else {
    const std::int64_t largest = std::int64_t(262144 / sizeof(T)), smallest = 16384;
    return std::clamp(n / (8 * std::int64_t(threads > 0 ? threads : 1)), smallest, largest);
  }
}

/// Output bytes from which the host look-back scan writes a contiguous View with streaming stores
/// (no read of each line before it is written). 2-core Intel Xeon VM, OpenMP, 2026-11-25, int32
/// counts -> int64 CRS offsets at 2^24: 14.3 ms with plain stores, 10.0 ms streamed. 16 MiB: then
/// input and output together fill a 32 MiB last-level cache, and float / int32 scans of 2^22
/// elements ran 12-24% faster streamed than at the former 32 MiB (2-core AMD EPYC VM, 2026-11-28
/// and 2026-11-29, perf_tests/results/README.md, "The host streaming threshold").
inline constexpr std::size_t host_streaming_bytes = std::size_t(16) << 20;

/// One launch of team::LookbackScanTiles, one team per tile; temporaries: the ticket, one flag,
/// aggregate and inclusive prefix per tile (flags and ticket zeroed first).
template <class Space, class In, class Out, class Op, class Total>
void lookback_scan_into(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                        const typename Out::non_const_value_type& seed, const Op& op, const Tuning& tuning,
                        const Total& total) {
  using T = typename Out::non_const_value_type;
  using kernel = team::LookbackScanTiles<Space, T, In, Out, Op>;
  const std::int64_t n = std::int64_t(in.extent(0));
  const kernel probe{in, out, n, 1, exclusive, seed, op, {}, nullptr};
  LaunchShape shape = choose_shape(function, space, Primitive::scan, tuning, probe, [](int team_size, int items) {
    return kernel::scratch_bytes(team_size, items);
  });
  if (is_host_space_v<Space> && tuning.items_per_thread == 0)
    shape.items_per_thread = int(host_scan_tile<T>(n, space.concurrency()));
  const std::int64_t tiles = n == 0 ? 1 : (n + shape.tile() - 1) / shape.tile();
  if (tiles > std::int64_t(0x7fffffff))
    throw_invalid_argument(function, "a scan of " + std::to_string(n) + " elements needs more than 2^31 tiles of " +
                                         std::to_string(shape.tile()) + "; use a larger items_per_thread");
  bool stream_output = false;
  if constexpr (kernel::streamable)
    stream_output = out.stride(0) == 1 && std::size_t(n) * sizeof(T) >= host_streaming_bytes;
  const std::size_t flags_offset = 16, flags_bytes = round_up16(std::size_t(tiles) * sizeof(int));
  const std::size_t values_bytes = round_up16(std::size_t(tiles) * sizeof(T));
  with_result_slot<T>(function, space, flags_offset + flags_bytes + 2 * values_bytes, total, [&](unsigned char* temp, T* target) {
    zero_bytes(space, temp, flags_offset + flags_bytes);
    const team::LookbackState<T> state{reinterpret_cast<std::int64_t*>(temp), reinterpret_cast<int*>(temp + flags_offset),
                                       reinterpret_cast<T*>(temp + flags_offset + flags_bytes),
                                       reinterpret_cast<T*>(temp + flags_offset + flags_bytes + values_bytes)};
    Kokkos::parallel_for(function,
                         Kokkos::TeamPolicy<Space>(space, int(tiles), shape.team_size)
                             .set_scratch_size(0, Kokkos::PerTeam(kernel::scratch_bytes(shape.team_size,
                                                                                       shape.items_per_thread))),
                         kernel{in, out, n, shape.items_per_thread, exclusive, seed, op, state, target, stream_output});
  });
}

}  // namespace kprim::impl
