#pragma once
// Device layer of reduce: passes of a team kernel until one value is left. The team kernel is
// the call's algorithm: ReduceTiles (`tree`), LadderReduce with a rung of the seeds' ladder, or
// GridStrideReduce.

#include <kprim/impl/device/launch_shape.hpp>
#include <kprim/impl/device/temporary_storage.hpp>
#include <kprim/impl/team/grid_stride_reduce.hpp>
#include <kprim/impl/team/ladder_reduce.hpp>
#include <kprim/impl/team/reduce_tiles.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kprim::impl {

/// Team kernels by algorithm: Family::kernel<Space, T, Source, Op>.
struct TreeKernels {
  template <class Space, class T, class Source, class Op>
  using kernel = team::ReduceTiles<Space, T, Source, Op>;
};
template <class Rung>
struct LadderKernels {
  template <class Space, class T, class Source, class Op>
  using kernel = team::LadderReduce<Space, T, Source, Op, Rung>;
};
struct GridStrideKernels {
  template <class Space, class T, class Source, class Op>
  using kernel = team::GridStrideReduce<Space, T, Source, Op>;
};

/// Reduces source(0) ... source(n-1) with `op` into the rank-0 View `result` (any memory space;
/// written directly when `space` can access it, else copied there asynchronously on `space`),
/// with the team kernel of `Kernels`. Pass 1 leaves one partial per team; each further pass
/// reduces those partials the same way, so any n is handled with teams_for() partials at a
/// time. Temporaries: one buffer, kept per instance between calls (TemporaryStorage).
template <class Kernels, class Space, class Source, class Op, class Result>
void reduce_passes(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                   const Result& result, const Tuning& tuning) {
  using T = typename Result::non_const_value_type;
  using memory_space = typename Space::memory_space;
  using partial_view = Kokkos::View<const T*, memory_space, Kokkos::MemoryUnmanaged>;
  using first_pass = typename Kernels::template kernel<Space, T, Source, Op>;
  using later_pass = typename Kernels::template kernel<Space, T, partial_view, Op>;

  first_pass first{source, n, 0, nullptr, op};
  const LaunchShape shape = choose_shape(function, space, Primitive::reduce, tuning, first,
                                         [](int team_size, int) { return first_pass::scratch_bytes(team_size); });
  first.items_per_thread = shape.items_per_thread;
  if constexpr (std::is_same_v<Kernels, LadderKernels<team::CompleteUnrollWarps8>>) {
    if (!team::CompleteUnrollWarps8::supports(shape.team_size))
      throw_invalid_argument(function, "the complete_unroll_warps8 algorithm needs a team size that is a power of two "
                                       "from 1 to " + std::to_string(team::CompleteUnrollWarps8::max_team_size) +
                                       ", got " + std::to_string(shape.team_size));
  }

  // Plan every pass first so the temporaries come from a single allocation.
  std::vector<std::int64_t> counts{n};
  while (teams_for(counts.back(), shape) > 1) counts.push_back(teams_for(counts.back(), shape));
  constexpr bool direct = Kokkos::SpaceAccessibility<Space, typename Result::memory_space>::accessible;
  std::int64_t temp_size = direct ? 0 : 1;
  for (std::size_t pass = 1; pass < counts.size(); ++pass) temp_size += counts[pass];
  const auto temporaries = TemporaryStorage<Space>::lease(function, space, temp_size * sizeof(T));
  T* const temp = temporaries.template as<T>();
  T* const final_value = direct ? result.data() : temp + (temp_size - 1);

  T* out = counts.size() == 1 ? final_value : temp;
  auto launch = [&](auto kernel, std::int64_t count) {
    kernel.partials = out;
    const int teams = teams_for(count, shape);
    Kokkos::parallel_for(function,
                         Kokkos::TeamPolicy<Space>(space, teams, shape.team_size)
                             .set_scratch_size(0, Kokkos::PerTeam(first_pass::scratch_bytes(shape.team_size))),
                         kernel);
  };
  launch(first, n);
  for (std::size_t pass = 1; pass < counts.size(); ++pass) {
    const partial_view partials(out, counts[pass]);
    out = pass + 1 == counts.size() ? final_value : out + counts[pass];
    launch(later_pass{partials, counts[pass], shape.items_per_thread, nullptr, op}, counts[pass]);
  }
  if constexpr (!direct)
    Kokkos::deep_copy(space, result, Kokkos::View<T, memory_space, Kokkos::MemoryUnmanaged>(final_value));
}

/// The team kernels of each multi-pass algorithm (single_pass has its own driver).
template <ReduceAlgorithm Algorithm>
struct KernelsOf;
template <> struct KernelsOf<ReduceAlgorithm::tree> { using type = TreeKernels; };
template <> struct KernelsOf<ReduceAlgorithm::neighbored> { using type = LadderKernels<team::Neighbored>; };
template <> struct KernelsOf<ReduceAlgorithm::neighbored_less> { using type = LadderKernels<team::NeighboredLess>; };
template <> struct KernelsOf<ReduceAlgorithm::interleaved> { using type = LadderKernels<team::Interleaved>; };
template <> struct KernelsOf<ReduceAlgorithm::unroll2> { using type = LadderKernels<team::Unroll2>; };
template <> struct KernelsOf<ReduceAlgorithm::unroll8> { using type = LadderKernels<team::Unroll8>; };
template <> struct KernelsOf<ReduceAlgorithm::unroll_warps8> { using type = LadderKernels<team::UnrollWarps8>; };
template <> struct KernelsOf<ReduceAlgorithm::complete_unroll_warps8> {
  using type = LadderKernels<team::CompleteUnrollWarps8>;
};
template <> struct KernelsOf<ReduceAlgorithm::grid_stride> { using type = GridStrideKernels; };

}  // namespace kprim::impl
