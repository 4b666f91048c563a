#pragma once
// Device layer, entry point: the one place where a call's algorithm is chosen (the `automatic`
// policy, the ladder rungs of the portable kernels, and the hand-written CUDA paths).

#include <kprim/impl/cuda/api.hpp>
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <kprim/impl/cuda/launch.cuh>  // kernels for the combinations the library does not hold
#endif
#include <kprim/impl/cuda/trait.hpp>
#include <kprim/impl/device/adapters.hpp>
#include <kprim/impl/device/bitwise_driver.hpp>
#include <kprim/impl/device/reduce_driver.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/device/scan_driver.hpp>
#include <kprim/impl/device/single_pass_driver.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

namespace kprim::impl {

template <class T, class X, class Y, bool Rounded>
struct Products;  // dot's source (kprim/dot.hpp)

namespace detail {
template <class Source>
struct is_products : std::false_type {};
template <class T, class X, class Y, bool Rounded>
struct is_products<Products<T, X, Y, Rounded>> : std::true_type {};

/// The source as Determinism::bitwise reads it: a dot's products rounded one by one.
template <class Source>
const Source& rounded_source(const Source& source) {
  return source;
}
template <class T, class X, class Y>
Products<T, X, Y, true> rounded_source(const Products<T, X, Y, false>& source) {
  return {source.x, source.y};
}

constexpr bool is_default(const Tuning& tuning) {
  return tuning.team_size == 0 && tuning.items_per_thread == 0 && tuning.max_teams == 0;
}

/// The element type a reduce source reads: the View's, or for a dot the inputs' common one
/// (void when x and y differ, which no hand-written kernel takes).
template <class Source>
struct source_input {
  using type = typename Source::non_const_value_type;
};
template <class T, class X, class Y, bool Rounded>
struct source_input<Products<T, X, Y, Rounded>> {
  using type = std::conditional_t<std::is_same_v<typename X::non_const_value_type, typename Y::non_const_value_type>,
                                  typename X::non_const_value_type, void>;
};
template <class F, class T>
struct source_input<IndexSource<F, T>> {
  using type = void;  // a functor: the hand-written kernels read it through cuda_indexed_avail_v
};
template <class Source>
using source_input_t = typename source_input<Source>::type;

/// The hand-written Determinism::bitwise kernels: float and double, input type = accumulator,
/// built-in ops (other shapes take the portable bitwise kernels: the same order, the same bits).
template <class Space, class In, class T, class Op>
inline constexpr bool cuda_bitwise_avail_v = cuda_spec_avail_v<Space, Primitive::reduce, In, T, Op> &&
                                             std::is_same_v<In, T> && std::is_floating_point_v<T> &&
                                             cuda::is_cuda_op_v<Op>;

/// Tuning's knobs shape the portable kernels; the hand-written CUDA kernels have their own
/// compile-time policies. A call that tunes `automatic` where the CUDA path runs is refused
/// rather than silently moved to slower kernels: it names a portable algorithm to tune that.
template <class Algorithm>
void refuse_cuda_tuning(const char* function, const Tuning& tuning, Algorithm portable) {
  if (!is_default(tuning))
    throw_invalid_argument(function, std::string("tuning applies to the portable kernels, and algorithm = automatic "
                                                 "runs the hand-written CUDA kernels here; name a portable "
                                                 "algorithm to tune it (e.g. kprim::") +
                                         (std::is_same_v<Algorithm, ReduceAlgorithm> ? "ReduceWith<kprim::ReduceAlgorithm::"
                                                                                     : "ScanWith<kprim::ScanAlgorithm::") +
                                         to_string(portable) + ">{.tuning = ...})");
}

/// Whether `automatic` takes the hand-written CUDA kernels: not for a tuned call in bitwise mode.
/// Bitwise takes no algorithm, so such a call could name no portable one to carry its tuning;
/// its types are exact in any order (the others never get here), so the portable kernels the
/// tuning shapes give the same bits.
inline bool automatic_takes_cuda(const Tuning& tuning, Determinism determinism) {
  return determinism != Determinism::bitwise || is_default(tuning);
}

/// Pushes the region "function [path]" (src/dispatch.cpp: call sites do not compile the name).
void push_path_region(const char* function, const char* path);

/// A Kokkos Tools region named after the call and the path it took ("kprim::reduce [cuda]"), so
/// profilers and tests can tell which kernels ran.
/// Without a tool attached it costs one flag test (no name is built).
class PathRegion {
 public:
  PathRegion(const char* function, const char* path) : active_(Kokkos::Profiling::profileLibraryLoaded()) {
    if (active_) push_path_region(function, path);
  }
  ~PathRegion() {
    if (active_) Kokkos::Profiling::popRegion();
  }
  PathRegion(const PathRegion&) = delete;
  PathRegion& operator=(const PathRegion&) = delete;

 private:
  bool active_;
};

/// True when every order of operations gives the same bits: integers (wrapping) with the
/// built-in ops. Floating-point Min/Max are not on the list: with signed zeros and NaNs their
/// result depends on which operand comes first.
template <class T, class Op>
constexpr bool exact_in_any_order() {
  return std::is_integral_v<T> && (std::is_same_v<Op, Sum> || std::is_same_v<Op, Prod> ||
                                   std::is_same_v<Op, Min> || std::is_same_v<Op, Max>);
}

/// Determinism::bitwise orders the operations itself, so it takes no algorithm.
template <class Algorithm>
void check_bitwise_algorithm(const char* function, Algorithm algorithm) {
  if (algorithm != Algorithm::automatic)
    throw_invalid_argument(function, std::string("determinism = bitwise fixes the order of operations and needs "
                                                 "algorithm = automatic, got ") +
                                         to_string(algorithm));
}

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
template <class View>
cuda::Input<typename View::non_const_value_type> cuda_input(const View& view) {
  return {view.data(), view.extent(0) > 1 ? std::int64_t(view.stride(0)) : 1};
}
template <class View>
cuda::Output<typename View::non_const_value_type> cuda_output(const View& view) {
  return {view.data(), view.extent(0) > 1 ? std::int64_t(view.stride(0)) : 1};
}
/// What the CUDA scan reads: a View as an Input, a functor source as itself.
template <class In>
auto cuda_source(const In& in) {
  if constexpr (Kokkos::is_view_v<In>) return cuda_input(in);
  else return in;
}
/// What the CUDA scan writes: a View as an Output, a sink as itself.
template <class Out>
auto cuda_sink(const Out& out) {
  if constexpr (Kokkos::is_view_v<Out>) return cuda_output(out);
  else return out;
}
#endif

/// The options kinds (kprim/options.hpp): plain options run `automatic`; ReduceWith / ScanWith
/// name one algorithm at compile time; AnyAlgorithm chooses at run time among all of them.
template <class Options>
inline constexpr bool names_algorithm_v = false;
template <auto A>
inline constexpr bool names_algorithm_v<AlgorithmOptions<A>> = true;
template <class Options>
inline constexpr bool any_algorithm_v = false;
template <class Options>
inline constexpr bool any_algorithm_v<AnyAlgorithm<Options>> = true;

/// Throws kprim::invalid_argument for plain options naming `algorithm` (src/dispatch.cpp).
[[noreturn]] void throw_run_time_algorithm(const char* function, const char* algorithm, bool scan);

/// check_algorithm of options whose algorithm is a run-time value.
template <class Options>
void check_run_time_algorithm(const char* function, const Options& options) {
  using Algorithm = std::remove_cv_t<decltype(options.algorithm)>;
  if (options.determinism == Determinism::bitwise) check_bitwise_algorithm(function, options.algorithm);
  if constexpr (!any_algorithm_v<Options>) {
    if (options.algorithm != Algorithm::automatic)
      throw_run_time_algorithm(function, to_string(options.algorithm), std::is_same_v<Algorithm, ScanAlgorithm>);
  }
}

/// Checks the algorithm of run-time options: plain options compile `automatic` alone, so they
/// refuse another algorithm (and Determinism::bitwise refuses any named algorithm).
template <class Options>
void check_algorithm(const char* function, const Options& options) {
  if constexpr (!names_algorithm_v<Options>) check_run_time_algorithm(function, options);
}

/// Calls f(std::integral_constant<Algorithm, a>{}) for the named (not automatic) algorithm a, one
/// of `all` (kprim::all_reduce_algorithms or all_scan_algorithms).
template <const auto& all, class Algorithm, class F, std::size_t... I>
void visit_algorithm_in(Algorithm algorithm, F&& f, std::index_sequence<I...>) {
  (void)((algorithm == all[I] ? (f(std::integral_constant<Algorithm, all[I]>{}), true) : false) || ...);
}
template <class F>
void visit_algorithm(ReduceAlgorithm algorithm, F&& f) {
  constexpr std::size_t count = std::size(all_reduce_algorithms);
  visit_algorithm_in<all_reduce_algorithms>(algorithm, f, std::make_index_sequence<count>{});
}
template <class F>
void visit_algorithm(ScanAlgorithm algorithm, F&& f) {
  constexpr std::size_t count = std::size(all_scan_algorithms);
  visit_algorithm_in<all_scan_algorithms>(algorithm, f, std::make_index_sequence<count>{});
}

/// Views whose unmanaged twin (canonical() below) kprim's kernels run on: rank 0 and 1, LayoutLeft,
/// LayoutRight or LayoutStride.
template <class View>
inline constexpr bool has_canonical_form_v = [] {
  if constexpr (Kokkos::is_view_v<View>) {
    using Layout = typename View::array_layout;
    return View::rank() <= 1 && (std::is_same_v<Layout, Kokkos::LayoutRight> ||
                                 std::is_same_v<Layout, Kokkos::LayoutLeft> || std::is_same_v<Layout, Kokkos::LayoutStride>);
  } else {
    return false;
  }
}();

/// The unmanaged View of the same data that the kernels are compiled for: one type per value type,
/// memory space and contiguous or strided, whatever the user's layout and memory traits, so that
/// call sites share the instantiations libkprim holds (precompiled.hpp). Inputs become const
/// (Const); other arguments (sources, sinks) pass through.
template <bool Const, class View>
auto canonical(const View& view) {
  if constexpr (!has_canonical_form_v<View>) {
    return view;
  } else {
    using T = std::conditional_t<Const, const typename View::non_const_value_type, typename View::non_const_value_type>;
    using Memory = typename View::memory_space;
    if constexpr (View::rank() == 0)
      return Kokkos::View<T, Memory, Kokkos::MemoryUnmanaged>(view.data());
    else if constexpr (std::is_same_v<typename View::array_layout, Kokkos::LayoutStride>)
      return Kokkos::View<T*, Kokkos::LayoutStride, Memory, Kokkos::MemoryUnmanaged>(
          view.data(), Kokkos::LayoutStride(view.extent(0), view.stride(0)));
    else
      return Kokkos::View<T*, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>(view.data(), view.extent(0));
  }
}

/// A reduce source with its Views canonical (a dot's two inputs).
template <class Source>
auto canonical_source(const Source& source) {
  return canonical<true>(source);
}
template <class T, class X, class Y, bool Rounded>
auto canonical_source(const Products<T, X, Y, Rounded>& source) {
  using CX = decltype(canonical<true>(source.x));
  using CY = decltype(canonical<true>(source.y));
  return Products<T, CX, CY, Rounded>{canonical<true>(source.x), canonical<true>(source.y)};
}

/// Hands a scanned buffer to a sink, element by element.
template <class Buffer, class Out>
struct DrainInto {
  Buffer buffer;
  Out out;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const { out(i) = buffer(i); }
};

}  // namespace detail

/// What `automatic` runs on Space's portable kernels (the hand-written CUDA paths, where they
/// apply, come first).
// Portable kernels, H100 80GB HBM3, 2026-11-22 (kprim-bench --ladder, float, 2^28, GB/s):
// reduce tree 2220 / single_pass 2340, dot tree 2793 / single_pass 1953, scan three_phase 672 /
// decoupled_lookback 456 (its look-back runs at team barriers). On the 2-core CPU the single-pass
// forms move 2n instead of 4n (scan) and fold with independent chains.
template <class Space>
inline constexpr ReduceAlgorithm automatic_reduce_algorithm =
    is_host_space_v<Space> ? ReduceAlgorithm::single_pass : ReduceAlgorithm::tree;
template <class Space>
inline constexpr ScanAlgorithm automatic_scan_algorithm =
    is_host_space_v<Space> ? ScanAlgorithm::decoupled_lookback : ScanAlgorithm::three_phase;

/// The portable reduce with algorithm Algorithm.
template <ReduceAlgorithm Algorithm, class Space, class Source, class Op, class Result>
void run_portable_reduce(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                         const Result& result, const Tuning& tuning) {
  const detail::PathRegion region(function, to_string(Algorithm));
  if constexpr (Algorithm == ReduceAlgorithm::single_pass)
    single_pass_reduce_into(function, space, n, source, op, result, tuning);
  else
    reduce_passes<typename KernelsOf<Algorithm>::type>(function, space, n, source, op, result, tuning);
}

/// The reduce `automatic` runs: the hand-written CUDA kernels where they apply, else the
/// portable default of the space; Determinism::bitwise first where the type is not exact.
template <class Space, class Source, class Op, class Result>
void run_automatic_reduce(const char* function, const Space& space, std::int64_t n, const Source& source,
                          const Op& op, const Result& result, const Tuning& tuning, Determinism determinism) {
  using T = typename Result::non_const_value_type;
  using In = detail::source_input_t<Source>;
  constexpr bool exact = detail::exact_in_any_order<T, Op>();
  if constexpr (!exact) {
    if (determinism == Determinism::bitwise) {
      if constexpr (detail::cuda_bitwise_avail_v<Space, In, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
        if (detail::is_default(tuning)) {
          const detail::PathRegion region(function, "cuda bitwise");
          // No scratch: the CUDA bitwise reduce works in the instance's zeroed state.
          with_result_slot<T>(
              function, space, 0, result,
              [&](unsigned char*, T* target, unsigned char* state) {
                if constexpr (detail::is_products<Source>::value)
                  cuda::bitwise_dot<T>(function, space, detail::cuda_input(source.x), detail::cuda_input(source.y), n,
                                       target, state);
                else
                  cuda::bitwise_reduce<T, Op>(function, space, detail::cuda_input(source), n, op, target, state);
              },
              cuda::bitwise_reduce_state_bytes(n));
          return;
        }
#endif
      }
      const detail::PathRegion region(function, "portable bitwise");
      bitwise_reduce_into(function, space, n, detail::rounded_source(source), op, result, tuning);
      return;
    }
  }
  constexpr bool cuda_path = is_index_source_v<Source> ? cuda_indexed_avail_v<Space, Primitive::reduce, T, Op>
                                                       : cuda_spec_avail_v<Space, Primitive::reduce, In, T, Op>;
  if constexpr (cuda_path) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    // A tuned bitwise call of an exact type takes the portable kernels the tuning shapes (the same
    // bits in any order; bitwise takes no algorithm, so it could name none to carry the tuning).
    if (detail::automatic_takes_cuda(tuning, determinism)) {
      detail::refuse_cuda_tuning(function, tuning, ReduceAlgorithm::tree);
      const detail::PathRegion region(function, "cuda");
      if constexpr (is_index_source_v<Source>) {
        with_result_slot<T>(
            function, space, cuda::transform_reduce_temp_bytes<T>(function, space, n), result,
            [&](unsigned char* temp, T* target, unsigned char* state) {
              cuda::transform_reduce<T, Op>(function, space, source, n, op, target, temp, state);
            },
            cuda::reduce_state_bytes);
      } else {
        constexpr bool products = detail::is_products<Source>::value;
        const std::size_t temp_bytes = products ? cuda::dot_temp_bytes<In, T>(function, space, n)
                                                : cuda::reduce_temp_bytes<In, T>(function, space, n);
        with_result_slot<T>(
            function, space, temp_bytes, result,
            [&](unsigned char* temp, T* target, unsigned char* state) {
              if constexpr (products)
                cuda::dot<In, T>(function, space, detail::cuda_input(source.x), detail::cuda_input(source.y), n,
                                 target, temp, state);
              else
                cuda::reduce<In, T, Op>(function, space, detail::cuda_input(source), n, op, target, temp, state);
            },
            cuda::reduce_state_bytes);
      }
      return;
    }
#endif
  }
  // Where the CUDA kernels take every call (all but the tuned bitwise calls of exact types), the
  // portable kernels are not compiled.
  if constexpr (!cuda_path || exact)
    run_portable_reduce<automatic_reduce_algorithm<Space>>(function, space, n, source, op, result, tuning);
}

/// Reduces source(0 .. n) with `op` into the rank-0 View `result`, with what `options` names
/// (kprim/options.hpp): a call compiles `automatic`, the one algorithm of ReduceWith, or every
/// algorithm for AnyAlgorithm.
template <class Space, class Source, class Op, class Result, class Options>
void run_reduce(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                const Result& result, const Options& options) {
  if constexpr (detail::names_algorithm_v<Options>) {
    run_portable_reduce<Options::algorithm>(function, space, n, source, op, result, options.tuning);
  } else {
    detail::check_algorithm(function, options);
    if constexpr (detail::any_algorithm_v<Options>) {
      if (options.algorithm != ReduceAlgorithm::automatic) {
        detail::visit_algorithm(options.algorithm, [&](auto algorithm) {
          run_portable_reduce<decltype(algorithm)::value>(function, space, n, source, op, result, options.tuning);
        });
        return;
      }
    }
    run_automatic_reduce(function, space, n, detail::canonical_source(source), op, detail::canonical<false>(result),
                         options.tuning, options.determinism);
  }
}

/// Compacts [0, n) by `selection` (kprim/copy_if.hpp) into `count` (a rank-0 View `space` can
/// write): the hand-written CUDA select where `automatic` takes it (a compaction is a scan of
/// counts: the scan's trait decides), else portable() (the compaction on the portable scan).
template <class Space, class Selection, class Count, class Options, class Portable>
void run_select([[maybe_unused]] const char* function, [[maybe_unused]] const Space& space,
                [[maybe_unused]] std::int64_t n, [[maybe_unused]] const Selection& selection,
                [[maybe_unused]] const Count& count, [[maybe_unused]] const Options& options, Portable portable) {
  if constexpr (!detail::names_algorithm_v<Options> && cuda_indexed_avail_v<Space, Primitive::scan, std::int64_t, Sum>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    detail::check_algorithm(function, options);
    if (options.algorithm == ScanAlgorithm::automatic &&
        detail::automatic_takes_cuda(options.tuning, options.determinism)) {  // exact counts: any order
      detail::refuse_cuda_tuning(function, options.tuning, ScanAlgorithm::three_phase);
      const detail::PathRegion region(function, "cuda");
      with_result_slot<std::int64_t>(
          function, space, 0, count,
          [&](unsigned char*, std::int64_t* target, TileState tiles) {
            cuda::select(function, space, selection, n, target, tiles);
          },
          0, cuda::select_tile_state<Selection>(n));
      return;
    }
#endif
  }
  portable();
}

/// The portable scan with algorithm Algorithm: the single-pass look-back, or three phases with
/// Algorithm's tile (into a buffer first when `out` is a sink, which takes each output once).
template <ScanAlgorithm Algorithm, class Space, class In, class Out, class Op, class Total>
void run_portable_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                       const typename Out::non_const_value_type& seed, const Op& op, const Tuning& tuning,
                       const Total& total) {
  using T = typename Out::non_const_value_type;
  const detail::PathRegion region(function, to_string(Algorithm));
  if constexpr (Algorithm == ScanAlgorithm::decoupled_lookback) {
    lookback_scan_into(function, space, in, out, exclusive, seed, op, tuning, total);
  } else if constexpr (Kokkos::is_view_v<Out>) {
    scan_with<typename TileOf<Algorithm>::type>(function, space, in, out, exclusive, seed, op, tuning, total);
  } else {
    const std::int64_t n = std::int64_t(in.extent(0));
    using buffer_view = Kokkos::View<T*, typename Space::memory_space>;
    const buffer_view buffer(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kprim::scan buffer"), n);
    scan_with<typename TileOf<Algorithm>::type>(function, space, in, buffer, exclusive, seed, op, tuning, total);
    Kokkos::parallel_for(function, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                         detail::DrainInto<buffer_view, Out>{buffer, out});
  }
}

/// The scan `automatic` runs: as run_automatic_reduce; a sink (which takes each output once)
/// takes the single-pass scan.
template <class Space, class In, class Out, class Op, class Total>
void run_automatic_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                        const typename Out::non_const_value_type& seed, const Op& op, const Tuning& tuning,
                        Determinism determinism, const Total& total) {
  using T = typename Out::non_const_value_type;
  constexpr bool views = Kokkos::is_view_v<In> && Kokkos::is_view_v<Out>;
  constexpr bool exact = detail::exact_in_any_order<T, Op>();
  [[maybe_unused]] const std::int64_t n = std::int64_t(in.extent(0));
  if constexpr (!exact) {
    if (determinism == Determinism::bitwise) {
      if constexpr (views) {
        using Element = typename In::non_const_value_type;
        if constexpr (detail::cuda_bitwise_avail_v<Space, Element, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
          if (detail::is_default(tuning)) {
            const detail::PathRegion region(function, "cuda bitwise");
            with_result_slot<T>(
                function, space, 0, total,
                [&](unsigned char*, T* target, TileState tiles) {
                  cuda::bitwise_scan<T, Op>(function, space, detail::cuda_input(in), detail::cuda_output(out), n,
                                            exclusive, seed, op, target, tiles);
                },
                0, cuda::bitwise_scan_tile_state(n, sizeof(T)));
            return;
          }
#endif
        }
      }
      const detail::PathRegion region(function, "portable bitwise");
      bitwise_scan_into(function, space, in, out, exclusive, seed, op, tuning, total);
      return;
    }
  }
  constexpr bool cuda_path = views ? cuda_spec_avail_v<Space, Primitive::scan, detail::source_input_t<In>, T, Op>
                                   : cuda_indexed_avail_v<Space, Primitive::scan, T, Op>;
  if constexpr (cuda_path) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (detail::automatic_takes_cuda(tuning, determinism)) {
      detail::refuse_cuda_tuning(function, tuning, ScanAlgorithm::three_phase);
      const detail::PathRegion region(function, "cuda");
      with_result_slot<T>(
          function, space, 0, total,
          [&](unsigned char*, T* target, TileState tiles) {
            if constexpr (views)
              cuda::scan<typename In::non_const_value_type, T, Op>(function, space, detail::cuda_input(in),
                                                                   detail::cuda_output(out), n, exclusive, seed, op,
                                                                   target, tiles);
            else
              cuda::scan_indexed<T, Op>(function, space, detail::cuda_source(in), detail::cuda_sink(out), n,
                                        exclusive, seed, op, target, tiles);
          },
          0, cuda::scan_tile_state<T>(n));
      return;
    }
#endif
  }
  if constexpr (!cuda_path || exact) {
    constexpr ScanAlgorithm portable =
        Kokkos::is_view_v<Out> ? automatic_scan_algorithm<Space> : ScanAlgorithm::decoupled_lookback;
    run_portable_scan<portable>(function, space, in, out, exclusive, seed, op, tuning, total);
  }
}

/// Scans in -> out (exclusive: seeded with `seed`) with what `options` names (as run_reduce); the
/// total goes to `total` unless it is NoTotal. `in` is a View or an IndexSource, `out` a View or
/// a Sink.
template <class Space, class In, class Out, class Op, class Options, class Total>
void run_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
              const typename Out::non_const_value_type& seed, const Op& op, const Options& options,
              const Total& total) {
  if constexpr (detail::names_algorithm_v<Options>) {
    run_portable_scan<Options::algorithm>(function, space, in, out, exclusive, seed, op, options.tuning, total);
  } else {
    detail::check_algorithm(function, options);
    if constexpr (detail::any_algorithm_v<Options>) {
      if (options.algorithm != ScanAlgorithm::automatic) {
        detail::visit_algorithm(options.algorithm, [&](auto algorithm) {
          run_portable_scan<decltype(algorithm)::value>(function, space, in, out, exclusive, seed, op,
                                                        options.tuning, total);
        });
        return;
      }
    }
    run_automatic_scan(function, space, detail::canonical<true>(in), detail::canonical<false>(out), exclusive, seed, op,
                       options.tuning, options.determinism, detail::canonical<false>(total));
  }
}

}  // namespace kprim::impl

#include <kprim/impl/device/precompiled.hpp>
