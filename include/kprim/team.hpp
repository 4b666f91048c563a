#pragma once
/// @file
/// Team-level reduce and scans: called by every thread of a team inside a user's
/// `Kokkos::TeamPolicy` kernel, over the team's own range of indices, in the team's scratch memory.

#include <kprim/impl/cuda/trait.hpp>
#include <kprim/impl/team/blelloch_scan.hpp>
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/ops.hpp>
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <kprim/impl/cuda/team.cuh>
#endif

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

/// Team-level primitives. Every thread of the team calls them together (they synchronise the
/// team), with a `Workspace` carved from the team's scratch once per kernel invocation:
///
/// @code
/// using policy = Kokkos::TeamPolicy<>;
/// const int team_size = 128;
/// const auto bytes = own_bytes + kprim::team::scratch_bytes<double>(team_size);
/// Kokkos::parallel_for(policy(rows, team_size).set_scratch_size(0, Kokkos::PerTeam(bytes)),
///     KOKKOS_LAMBDA(const policy::member_type& team) {
///       auto own = Kokkos::View<int*, policy::execution_space::scratch_memory_space>(team.team_scratch(0), 3);
///       kprim::team::Workspace<double> workspace(team);  // after the kernel's own scratch
///       const std::int64_t first = row_map(team.league_rank()), n = row_map(team.league_rank() + 1) - first;
///       const double norm2 = kprim::team::reduce(team, workspace, n,
///           [&](std::int64_t i) { return values(first + i) * values(first + i); });
///       kprim::team::inclusive_scan(team, workspace, n, [&](std::int64_t i) { return values(first + i); },
///           [&](std::int64_t i, double prefix) { sums(first + i) = prefix; });
///     });
/// @endcode
///
/// On CUDA (with KPRIM_ENABLE_CUDA_WARP, teams of whole warps without vector lanes, accumulators
/// of up to 32 bytes) each warp reads its part in coalesced rows of 32 and scans them with warp
/// shuffles; elsewhere each thread takes a contiguous run of the n indices, folds it, the team
/// scans the runs' totals in its scratch, and each thread rescans its run from its prefix. Both
/// keep left-to-right order, so any associative op works, commutative or not. Ops need an
/// identity (`Sum`, `Prod`, `Min`, `Max`, or a member `identity()`). Floating-point results may
/// differ in the last bits from the sequential order (as kprim's `Determinism::fastest`).
namespace kprim::team {

namespace detail {
/// Smallest power of two >= count (the Blelloch sweeps' width).
KOKKOS_INLINE_FUNCTION constexpr int power_of_two_at_least(int count) {
  int power = 1;
  while (power < count) power *= 2;
  return power;
}
/// Slots of T a team of `team_size` threads works in: one per thread (padded against bank
/// conflicts, rounded up to a power of two) and the total.
KOKKOS_INLINE_FUNCTION constexpr int slots_for(int team_size) {
  return impl::team::padded_size(power_of_two_at_least(team_size)) + 1;
}
/// slots_for(team_size), as a Workspace computes it on every warp: on the GPU with `__clz`, not the
/// loop (H200, 2026-11-28: int32 -> int64 team scans 4-5% faster at 2^24-2^26). Only there: a
/// loop-free power of two in the portable path, compiled into the same kernels, took the int64
/// team kernel from 80 to 96 registers (13% slower at 2^24; perf_tests/results/README.md, "One
/// chain for the fetched-ahead kernel").
KOKKOS_INLINE_FUNCTION int workspace_slots(int team_size) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return impl::team::padded_size(team_size <= 1 ? 1 : int(1u << (32 - __clz(team_size - 1)))) + 1;
#else
  return slots_for(team_size);
#endif
}
/// The contiguous run of [0, n) that thread `rank` of `size` takes.
struct Run {
  std::int64_t begin, end;
};
KOKKOS_INLINE_FUNCTION Run run_of(std::int64_t n, int rank, int size) {
  const std::int64_t length = (n + size - 1) / size;
  const std::int64_t begin = Kokkos::min(n, std::int64_t(rank) * length);
  return {begin, Kokkos::min(n, begin + length)};
}
/// Element i of a source: a rank-1 View or a callable f(i), converted to the accumulator T.
template <class T, class Source>
struct Reader {
  const Source& source;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return T(source(i)); }
};
/// The vector-level calls' accumulator: the one named, else the source's value type.
template <class Named, class Source>
using accumulator_t = std::conditional_t<std::is_void_v<Named>,
                                         std::remove_cvref_t<decltype(std::declval<const Source&>()(std::int64_t(0)))>,
                                         Named>;
/// Hands value to a sink: a rank-1 View (sink(i) = value) or a callable sink(i, value).
template <class T, class Sink>
struct Writer {
  const Sink& sink;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& value) const {
    if constexpr (Kokkos::is_view_v<Sink>) sink(i) = value;
    else sink(i, value);
  }
};
}  // namespace detail

/// Bytes of team scratch (level 0 unless the Workspace is told otherwise) that a `Workspace<T>`
/// takes for teams of `team_size` threads: add it to the kernel's own needs in
/// `set_scratch_size(level, Kokkos::PerTeam(bytes))`.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::size_t scratch_bytes(int team_size) {
  return std::size_t(detail::slots_for(team_size < 1 ? 1 : team_size)) * sizeof(T) + alignof(T) - 1;
}

/// The part of a team's scratch where the team-level calls on accumulators T work. Make one per
/// kernel invocation, after the kernel's own scratch allocations (scratch is handed out in
/// order), and pass it to any number of calls. The team must have been given
/// `scratch_bytes<T>(team_size)` bytes for it; with less, the constructor aborts the kernel.
template <class T>
class Workspace {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "kprim::team::Workspace: the accumulator must be trivially copyable and default constructible");

 public:
  /// Takes scratch_bytes<T>(team.team_size()) bytes from the team's scratch at `level`.
  template <class Member>
  KOKKOS_FUNCTION explicit Workspace(const Member& team, int level = 0)
      : slots_(static_cast<T*>(team.team_scratch(level).get_shmem_aligned(
            std::size_t(detail::workspace_slots(team.team_size())) * sizeof(T), alignof(T)))) {
    if (slots_ == nullptr)
      Kokkos::abort("kprim::team::Workspace: the team's scratch is too small; add kprim::team::scratch_bytes<T>(team_size) to set_scratch_size");
  }

  /// The slots (one per thread, padded, then the total).
  KOKKOS_FUNCTION T* data() const { return slots_; }

 private:
  T* slots_;
};

namespace detail {
/// Host teams up to this size fold the runs' totals on every thread (one barrier); others scan
/// them with Blelloch's sweeps (2 log2(size) + 2 barriers, the work spread over the team).
/// Barriers are what a host team pays most for (~0.2 us each, 2-core VM, OpenMP): teams of 2
/// scanning 4096 floats, 2026-11-26, 0.64-0.89x Kokkos' TeamThreadRange scan with the sweeps,
/// 0.96-1.07x with one thread scanning the totals between two barriers (perf_tests/results/README.md).
inline constexpr int serial_team_limit = 32;

/// Folds this thread's run, scans the runs' totals across the team: returns the op over all of
/// them and leaves in `prefix` the op over the runs before this thread's (identity for thread 0).
/// The caller must barrier before the workspace is used again.
template <class T, class Member, class Source, class Op>
KOKKOS_FUNCTION T fold_and_scan_runs(const Member& team, const Workspace<T>& workspace, const Run& run,
                                     const Source& source, const Op& op, T& prefix) {
  const int rank = team.team_rank();
  const int size = team.team_size();
  T* const slots = workspace.data();
  slots[impl::team::padded(rank)] = impl::thread::fold_run<T>(run.begin, run.end, Reader<T, Source>{source}, op);
  team.team_barrier();
  bool serial = false;
  KOKKOS_IF_ON_HOST((serial = size <= serial_team_limit;))
  if (serial) {
    // Each thread folds the totals itself, in rank order: up to 32 reads cost less than the
    // barrier a shared scan of them would need.
    T running = identity_of<T>(op);
    for (int r = 0; r < rank; ++r) running = op(running, slots[impl::team::padded(r)]);
    prefix = running;
    for (int r = rank; r < size; ++r) running = op(running, slots[impl::team::padded(r)]);
    return running;
  }
  const int folds = power_of_two_at_least(size);
  for (int j = size + rank; j < folds; j += size) slots[impl::team::padded(j)] = identity_of<T>(op);
  team.team_barrier();
  const T total = impl::team::blelloch_exclusive_scan(team, slots, folds, slots + impl::team::padded_size(folds), op);
  prefix = slots[impl::team::padded(rank)];
  return total;
}
}  // namespace detail

/// op(f(0), ..., f(n - 1)) computed by the whole team; every thread gets it (op's identity for
/// n <= 0). `f` is a rank-1 View or a callable f(i); its values are converted to T.
template <class T, class Member, class Source, class Op = Sum>
  requires Operation<Op, T>
KOKKOS_FUNCTION T reduce(const Member& team, const Workspace<T>& workspace, std::int64_t n, const Source& f,
                         const Op& op = {}) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((if (impl::cuda::team_is_whole_warps()) {
      const T total = impl::cuda::team_reduce<T>(n, detail::Reader<T, Source>{f}, op, workspace.data());
      team.team_barrier();
      return total;
    }))
  }
#endif
  if (team.team_size() == 1) return impl::thread::fold_run<T>(0, n, detail::Reader<T, Source>{f}, op);
  T prefix;
  const detail::Run run = detail::run_of(n, team.team_rank(), team.team_size());
  const T total = detail::fold_and_scan_runs(team, workspace, run, f, op, prefix);
  team.team_barrier();  // every thread has read the total: the workspace may be reused
  return total;
}

/// Inclusive scan of f(0 .. n) by the whole team: write(i, op(f(0), ..., f(i))) once for each i
/// (or write(i) = ... when `write` is a rank-1 View), left to right in op's order. Returns the
/// total to every thread. `write` may overwrite the source's element i (in place).
template <class T, class Member, class Source, class Sink, class Op = Sum>
  requires Operation<Op, T>
KOKKOS_FUNCTION T inclusive_scan(const Member& team, const Workspace<T>& workspace, std::int64_t n,
                                 const Source& f, const Sink& write, const Op& op = {}) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((if (impl::cuda::team_is_whole_warps()) {
      const T total = impl::cuda::team_scan<false>(n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write},
                                                   op, identity_of<T>(op), workspace.data());
      team.team_barrier();
      return total;
    }))
  }
#endif
  if (team.team_size() == 1)  // Kokkos::AUTO on host spaces: one pass, no fold ahead of it
    return impl::thread::scan_run<T>(0, n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write},
                                     identity_of<T>(op), false, op);
  T prefix;
  const detail::Run run = detail::run_of(n, team.team_rank(), team.team_size());
  const T total = detail::fold_and_scan_runs(team, workspace, run, f, op, prefix);
  impl::thread::scan_run<T>(run.begin, run.end, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write}, prefix,
                            false, op);
  team.team_barrier();  // every element written, the workspace free again
  return total;
}

/// Exclusive scan of f(0 .. n) from `init` by the whole team: write(i, op(init, f(0), ...,
/// f(i - 1))) once for each i. Returns op(init, f(0), ..., f(n - 1)) to every thread.
template <class T, class Member, class Source, class Sink, class Op = Sum>
  requires Operation<Op, T>
KOKKOS_FUNCTION T exclusive_scan(const Member& team, const Workspace<T>& workspace, std::int64_t n,
                                 const Source& f, const Sink& write, const T& init, const Op& op = {}) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((if (impl::cuda::team_is_whole_warps()) {
      const T total = impl::cuda::team_scan<true>(n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write},
                                                  op, init, workspace.data());
      team.team_barrier();
      return total;
    }))
  }
#endif
  if (team.team_size() == 1)
    return impl::thread::scan_run<T>(0, n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write}, init, true,
                                     op);
  T prefix;
  const detail::Run run = detail::run_of(n, team.team_rank(), team.team_size());
  const T total = detail::fold_and_scan_runs(team, workspace, run, f, op, prefix);
  impl::thread::scan_run<T>(run.begin, run.end, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write},
                            op(init, prefix), true, op);
  team.team_barrier();
  return op(init, total);
}

/// op(f(0), ..., f(n - 1)) computed by the vector lanes of the calling team thread (where Kokkos'
/// ThreadVectorRange would run: inside a TeamThreadRange body, or per thread at team level);
/// every lane gets it (op's identity for n <= 0). The accumulator is f's value type unless named
/// (`vector_reduce<double>(team, n, f)`). Needs no Workspace and no barrier: threads of a
/// team may call it with different n. On CUDA the lanes read rows of `vector_length` elements and
/// combine them with shuffles over their group; on host spaces (one lane) it is a loop.
template <class Accumulator = void, class Member, class Source, class Op = Sum,
          class T = detail::accumulator_t<Accumulator, Source>>
  requires Operation<Op, T>
KOKKOS_FUNCTION T vector_reduce(const Member& team, std::int64_t n, const Source& f, const Op& op = {}) {
  T total;
  bool done = false;
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((total = impl::cuda::vector_reduce<T>(n, detail::Reader<T, Source>{f}, op); done = true;))
  }
#endif
  if (!done)  // one lane computes, the others receive its total
    Kokkos::single(
        Kokkos::PerThread(team),
        [&](T& value) { value = impl::thread::fold_run<T>(0, n, detail::Reader<T, Source>{f}, op); }, total);
  return total;
}

/// Inclusive scan of f(0 .. n) by the vector lanes of the calling team thread: write(i, op(f(0),
/// ..., f(i))) once for each i (write(i) = ... for a rank-1 View), in op's order. Returns the
/// total to every lane. As vector_reduce: no Workspace, no barrier.
template <class Accumulator = void, class Member, class Source, class Sink, class Op = Sum,
          class T = detail::accumulator_t<Accumulator, Source>>
  requires Operation<Op, T>
KOKKOS_FUNCTION T vector_inclusive_scan(const Member& team, std::int64_t n, const Source& f, const Sink& write,
                                        const Op& op = {}) {
  T total;
  bool done = false;
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((total = impl::cuda::vector_scan<false>(n, detail::Reader<T, Source>{f},
                                                                detail::Writer<T, Sink>{write}, op, identity_of<T>(op));
                         done = true;))
  }
#endif
  if (!done)
    Kokkos::single(
        Kokkos::PerThread(team),
        [&](T& value) {
          value = impl::thread::scan_run<T>(0, n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write},
                                            identity_of<T>(op), false, op);
        },
        total);
  return total;
}

/// Exclusive scan of f(0 .. n) from `init` by the vector lanes of the calling team thread:
/// write(i, op(init, f(0), ..., f(i - 1))). Returns op(init, f(0), ..., f(n - 1)) to every lane.
template <class Accumulator = void, class Member, class Source, class Sink, class Op = Sum,
          class T = detail::accumulator_t<Accumulator, Source>>
  requires Operation<Op, T>
KOKKOS_FUNCTION T vector_exclusive_scan(const Member& team, std::int64_t n, const Source& f, const Sink& write,
                                        const detail::accumulator_t<Accumulator, Source>& init, const Op& op = {}) {
  T total;
  bool done = false;
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (impl::cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((total = impl::cuda::vector_scan<true>(n, detail::Reader<T, Source>{f},
                                                               detail::Writer<T, Sink>{write}, op, init);
                         done = true;))
  }
#endif
  if (!done)
    Kokkos::single(
        Kokkos::PerThread(team),
        [&](T& value) {
          value = impl::thread::scan_run<T>(0, n, detail::Reader<T, Source>{f}, detail::Writer<T, Sink>{write}, init,
                                            true, op);
        },
        total);
  return total;
}

}  // namespace kprim::team
