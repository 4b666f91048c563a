#pragma once
// Team layer of the single-pass scan with decoupled look-back (Merrill & Garland,
// NVR-2016-002), portable: Kokkos atomics and fences in a TeamPolicy kernel.
//
// Each team scans one tile. It takes the tile's index from an atomic ticket, so it only waits
// on tiles whose teams are already running (on OpenMP a team is a thread that has started
// it; on GPUs a resident block). It folds its tile, publishes the aggregate (flag AGGREGATE),
// then looks back: up to 32 of its threads each read one predecessor's flag at once, and the
// window is folded from the nearest INCLUSIVE prefix forward; without one the window moves
// back. It publishes its inclusive prefix (flag INCLUSIVE), rescans the tile from its prefix
// and stores it: n reads and n writes in one pass. A value is written before its flag (fence
// between); a reader loads the flag, fences, then loads the value.

#include <kprim/impl/team/blelloch_scan.hpp>
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/impl/thread/streamed_run.hpp>
#include <kprim/impl/thread/vector_sum_scan.hpp>
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <thread>

namespace kprim::impl::team {

enum LookbackFlag : int { lookback_empty = 0, lookback_aggregate = 1, lookback_inclusive = 2 };

/// Per-tile state of one scan: `flags` (and the ticket) start at zero.
template <class T>
struct LookbackState {
  std::int64_t* ticket;
  int* flags;
  T* aggregates;
  T* inclusives;
};

template <class Space, class T, class In, class Out, class Op>
struct LookbackScanTiles {
  using member_type = typename Kokkos::TeamPolicy<Space>::member_type;
  using scratch_view = Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using flag_view = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using index_view = Kokkos::View<std::int64_t*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int max_window = 32;

  In in;
  Out out;
  std::int64_t n;
  int items_per_thread;
  bool exclusive;
  T seed;
  Op op;
  LookbackState<T> state;
  T* total;  // op(seed, all of in), or nullptr
  bool stream_output = false;  // host, contiguous View of T: streaming stores (thread/streamed_run.hpp)

  /// Whether `out` can take streaming stores at all: a View of T written by host threads.
  static constexpr bool streamable = [] {
    if constexpr (Kokkos::is_view_v<Out>)
      return std::is_same_v<typename Out::value_type, T> && !Out::memory_traits::is_atomic &&
             std::is_same_v<typename Space::memory_space, Kokkos::HostSpace> && thread::can_stream_v<T>;
    else
      return false;
  }();

  /// Whether a host Sum scan of contiguous Views of arithmetic types can run in SSE2 vectors
  /// (thread/vector_sum_scan.hpp); at run time both Views must also have stride 1.
  static constexpr bool sum_scannable = [] {
    if constexpr (Kokkos::is_view_v<In> && Kokkos::is_view_v<Out>)
      return std::is_same_v<Op, Sum> && std::is_same_v<typename Out::value_type, T> &&
             !Out::memory_traits::is_atomic && !In::memory_traits::is_atomic &&
             std::is_same_v<typename Space::memory_space, Kokkos::HostSpace> &&
             thread::can_sum_scan_vectors_v<typename In::non_const_value_type, T>;
    else
      return false;
  }();

  KOKKOS_INLINE_FUNCTION static int window(int team_size) { return team_size < max_window ? team_size : max_window; }

  static std::size_t scratch_bytes(int team_size, int items_per_thread) {
    std::size_t bytes = index_view::shmem_size(1) + scratch_view::shmem_size(2) +
                        flag_view::shmem_size(window(team_size) + 1) + scratch_view::shmem_size(window(team_size));
    if (team_size > 1) {  // a team of threads stages its tile in scratch; a lone thread works in place
      if (std::int64_t(team_size) * items_per_thread > (1 << 30)) return std::size_t(-1);
      int folds = 1;
      while (folds < team_size) folds *= 2;
      bytes += scratch_view::shmem_size(padded_size(team_size * items_per_thread)) +
               scratch_view::shmem_size(padded_size(folds));
    }
    return bytes;
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int rank = team.team_rank();
    const int size = team.team_size();
    const std::int64_t tile_size = std::int64_t(size) * items_per_thread;
    index_view tile_slot(team.team_scratch(0), 1);
    scratch_view slots(team.team_scratch(0), 2);  // [0] tile aggregate, [1] tile prefix
    flag_view window_flags(team.team_scratch(0), window(size) + 1);
    scratch_view window_values(team.team_scratch(0), window(size));

    if (rank == 0) tile_slot(0) = Kokkos::atomic_fetch_add(state.ticket, std::int64_t(1));
    team.team_barrier();
    const std::int64_t tile = tile_slot(0);
    const std::int64_t begin = Kokkos::min(n, tile * tile_size);
    const std::int64_t end = Kokkos::min(n, begin + tile_size);
    const auto get = [&](std::int64_t i) { return T(in(i)); };

    if (size == 1) {
      // Contiguous floating point: 16 chains, 4 vectors of floats in flight against 2. One thread,
      // 65536 elements in L2, 2-core AMD EPYC VM, 2026-11-28: float 0.096 -> 0.053 ns an element,
      // double 0.104 -> 0.086 (perf_tests/results/README.md, "Host scans: larger tiles, more chains").
      constexpr bool floating_sum = sum_scannable && std::is_floating_point_v<T>;
      bool contiguous = false;
      if constexpr (floating_sum) contiguous = in.stride(0) == 1;
      // Without floating_sum both branches are one instance: the call compiles no fold it never runs.
      constexpr int chains = floating_sum ? 16 : thread::default_fold_chains;
      const T aggregate = contiguous ? thread::fold_run<T, chains>(begin, end, get, op)
                                     : thread::fold_run<T>(begin, end, get, op);
      const T prefix = publish_and_look_back(team, tile, aggregate, slots, window_flags, window_values);
      if constexpr (requires { out.put.put_tile(begin, end, prefix); }) {
        if (exclusive) {  // the sink writes the whole tile itself (copy_if.hpp, parallel_scan.hpp)
          out.put.put_tile(begin, end, prefix);
          if (total != nullptr && end == n) *total = op(prefix, aggregate);
          return;
        }
      }
      if constexpr (sum_scannable) {
        if (in.stride(0) == 1 && out.stride(0) == 1) {
          KOKKOS_IF_ON_HOST((const T after = thread::sum_scan_vectors<T>(in.data() + begin, out.data() + begin,
                                                                         end - begin, prefix, exclusive, stream_output);
                             if (total != nullptr && end == n) *total = after;
                             return;))
        }
      }
      if constexpr (streamable) {
        if (stream_output) {
          KOKKOS_IF_ON_HOST((const T after = thread::scan_run_streamed<T>(begin, end, get, out.data(), prefix,
                                                                          exclusive, op);
                             if (total != nullptr && end == n) *total = after;
                             return;))
        }
      }
      const T after = thread::scan_run<T>(begin, end, get, [&](std::int64_t i, const T& v) { out(i) = v; }, prefix,
                                          exclusive, op);
      if (total != nullptr && end == n) *total = after;
      return;
    }

    int folds = 1;
    while (folds < size) folds *= 2;
    scratch_view elements(team.team_scratch(0), padded_size(int(tile_size)));
    scratch_view partials(team.team_scratch(0), padded_size(folds));
    const int count = int(end - begin);
    for (int k = rank; k < count; k += size) elements(padded(k)) = T(in(begin + k));
    team.team_barrier();
    const auto staged = [&](std::int64_t j) { return elements(padded(int(j))); };
    const int first = Kokkos::min(count, rank * items_per_thread);
    const int last = Kokkos::min(count, first + items_per_thread);
    partials(padded(rank)) = thread::fold_run<T>(first, last, staged, op);
    for (int j = size + rank; j < folds; j += size) partials(padded(j)) = identity_of<T>(op);
    team.team_barrier();
    const T aggregate = blelloch_exclusive_scan(team, partials.data(), folds, &slots(0), op);
    const T prefix = publish_and_look_back(team, tile, aggregate, slots, window_flags, window_values);
    thread::scan_run<T>(first, last, staged, [&](std::int64_t j, const T& v) { elements(padded(int(j))) = v; },
                        op(prefix, partials(padded(rank))), exclusive, op);
    team.team_barrier();
    for (int k = rank; k < count; k += size) out(begin + k) = elements(padded(k));
    if (rank == 0 && total != nullptr && end == n) *total = op(prefix, aggregate);
  }

 private:
  /// Publishes the tile's aggregate, finds its exclusive prefix (seed included) by looking
  /// back, publishes its inclusive prefix, and returns the prefix to every thread.
  template <class Slots, class Flags, class Values>
  KOKKOS_FUNCTION T publish_and_look_back(const member_type& team, std::int64_t tile, const T& aggregate,
                                          const Slots& slots, const Flags& window_flags,
                                          const Values& window_values) const {
    const int rank = team.team_rank();
    const int width = window(team.team_size());
    if (tile == 0) {
      if (rank == 0) publish(0, state.inclusives, op(seed, aggregate), lookback_inclusive);
      return seed;
    }
    if (rank == 0) publish(tile, state.aggregates, aggregate, lookback_aggregate);
    T prefix = identity_of<T>(op);  // meaningful in rank 0
    for (std::int64_t nearest = tile - 1;; nearest -= width) {
      if (rank < width) {
        const std::int64_t predecessor = nearest - rank;
        int flag = lookback_inclusive;  // before tile 0: never reached past tile 0's INCLUSIVE
        T value = identity_of<T>(op);
        if (predecessor >= 0) {
          for (int spins = 0; (flag = Kokkos::atomic_load(state.flags + predecessor)) == lookback_empty; ++spins) {
            // A CPU thread waiting on a descheduled one gives its core away (oversubscribed hosts).
            KOKKOS_IF_ON_HOST((if (spins > 256) std::this_thread::yield();))
          }
          Kokkos::memory_fence();
          value = Kokkos::atomic_load((flag == lookback_inclusive ? state.inclusives : state.aggregates) + predecessor);
        }
        window_flags(rank) = flag;
        window_values(rank) = value;
      }
      team.team_barrier();
      if (rank == 0) {
        int found = 0;
        for (int r = 0; r < width && !found; ++r) {  // nearest first: each earlier tile goes on the left
          prefix = op(window_values(r), prefix);
          found = window_flags(r) == lookback_inclusive;
        }
        window_flags(width) = found;
      }
      team.team_barrier();
      const bool found = window_flags(width) != 0;
      team.team_barrier();  // the window's scratch is rewritten by the next round
      if (found) break;
    }
    if (rank == 0) {
      publish(tile, state.inclusives, op(prefix, aggregate), lookback_inclusive);
      slots(1) = prefix;
    }
    team.team_barrier();
    return slots(1);
  }

  KOKKOS_FUNCTION void publish(std::int64_t tile, T* values, const T& value, int flag) const {
    values[tile] = value;
    Kokkos::memory_fence();
    Kokkos::atomic_store(state.flags + tile, flag);
  }
};

}  // namespace kprim::impl::team
