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

#include <cstdint>
#include <string>
#include <type_traits>

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
                                                 "algorithm (e.g. ") +
                                         to_string(portable) + ") to tune it");
}

/// Whether `automatic` takes the hand-written CUDA kernels: not for a tuned call in bitwise mode.
/// Bitwise takes no algorithm, so such a call could name no portable one to carry its tuning;
/// its types are exact in any order (the others never get here), so the portable kernels the
/// tuning shapes give the same bits.
template <class Options>
bool automatic_takes_cuda(const Options& options) {
  return options.algorithm == decltype(options.algorithm)::automatic &&
         (options.determinism != Determinism::bitwise || is_default(options.tuning));
}

/// A Kokkos Tools region named after the call and the path it took ("kprim::reduce [cuda]"), so
/// profilers and tests can tell which kernels ran.
/// Without a tool attached it costs one flag test (no name is built).
class PathRegion {
 public:
  PathRegion(const char* function, const char* path) : active_(Kokkos::Profiling::profileLibraryLoaded()) {
    if (active_) Kokkos::Profiling::pushRegion(std::string(function) + " [" + path + "]");
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

/// Hands a scanned buffer to a sink, element by element.
template <class Buffer, class Out>
struct DrainInto {
  Buffer buffer;
  Out out;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const { out(i) = buffer(i); }
};

}  // namespace detail

/// What `automatic` runs on Space's portable kernels for n elements (the hand-written CUDA
/// paths, where they apply, come first).
// Portable kernels, H100 80GB HBM3, 2026-11-22 (kprim-bench --ladder, float, 2^28, GB/s):
// reduce tree 2220 / single_pass 2340, dot tree 2793 / single_pass 1953, scan three_phase 672 /
// decoupled_lookback 456 (its look-back runs at team barriers). On the 2-core CPU the single-pass
// forms move 2n instead of 4n (scan) and fold with independent chains.
template <class Space>
ReduceAlgorithm automatic_reduce_algorithm(std::int64_t) {
  return is_host_space_v<Space> ? ReduceAlgorithm::single_pass : ReduceAlgorithm::tree;
}
template <class Space>
ScanAlgorithm automatic_scan_algorithm(std::int64_t) {
  return is_host_space_v<Space> ? ScanAlgorithm::decoupled_lookback : ScanAlgorithm::three_phase;
}

/// Reduces source(0 .. n) with `op` into the rank-0 View `result`, with the algorithm `options` asks for.
template <class Space, class Source, class Op, class Result>
void run_reduce(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                const Result& result, const ReduceOptions& options) {
  using T = typename Result::non_const_value_type;
  using In = detail::source_input_t<Source>;
  if (options.determinism == Determinism::bitwise) {
    detail::check_bitwise_algorithm(function, options.algorithm);
    if constexpr (!detail::exact_in_any_order<T, Op>()) {
      if constexpr (detail::cuda_bitwise_avail_v<Space, In, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
        if (detail::is_default(options.tuning)) {
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
      bitwise_reduce_into(function, space, n, detail::rounded_source(source), op, result, options.tuning);
      return;
    }
  }
  if constexpr (is_index_source_v<Source> && cuda_indexed_avail_v<Space, Primitive::reduce, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (detail::automatic_takes_cuda(options)) {
      detail::refuse_cuda_tuning(function, options.tuning, ReduceAlgorithm::tree);
      const detail::PathRegion region(function, "cuda");
      with_result_slot<T>(
          function, space, cuda::transform_reduce_temp_bytes<T>(function, space, n), result,
          [&](unsigned char* temp, T* target, unsigned char* state) {
            cuda::transform_reduce<T, Op>(function, space, source, n, op, target, temp, state);
          },
          cuda::reduce_state_bytes);
      return;
    }
#endif
  }
  if constexpr (cuda_spec_avail_v<Space, Primitive::reduce, In, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (detail::automatic_takes_cuda(options)) {
      detail::refuse_cuda_tuning(function, options.tuning, ReduceAlgorithm::tree);
      const detail::PathRegion region(function, "cuda");
      constexpr bool products = detail::is_products<Source>::value;
      const std::size_t temp_bytes = products ? cuda::dot_temp_bytes<In, T>(function, space, n)
                                              : cuda::reduce_temp_bytes<In, T>(function, space, n);
      with_result_slot<T>(
          function, space, temp_bytes, result,
          [&](unsigned char* temp, T* target, unsigned char* state) {
            if constexpr (products)
              cuda::dot<In, T>(function, space, detail::cuda_input(source.x), detail::cuda_input(source.y), n, target,
                               temp, state);
            else
              cuda::reduce<In, T, Op>(function, space, detail::cuda_input(source), n, op, target, temp, state);
          },
          cuda::reduce_state_bytes);
      return;
    }
#endif
  }
  const ReduceAlgorithm algorithm =
      options.algorithm == ReduceAlgorithm::automatic ? automatic_reduce_algorithm<Space>(n) : options.algorithm;
  const detail::PathRegion region(function, to_string(algorithm));
  if (algorithm == ReduceAlgorithm::single_pass) {
    single_pass_reduce_into(function, space, n, source, op, result, options.tuning);
    return;
  }
  reduce_into(function, space, n, source, op, result, ReduceOptions{algorithm, options.tuning, options.determinism});
}

/// Compacts [0, n) by `selection` (kprim/copy_if.hpp) into `count` (a rank-0 View `space` can
/// write): the hand-written CUDA select where it applies (a compaction is a scan of counts: the
/// scan's trait decides), else portable() (the compaction on the portable scan).
template <class Space, class Selection, class Count, class Portable>
void run_select([[maybe_unused]] const char* function, [[maybe_unused]] const Space& space,
                [[maybe_unused]] std::int64_t n, [[maybe_unused]] const Selection& selection,
                [[maybe_unused]] const Count& count, [[maybe_unused]] const ScanOptions& options, Portable portable) {
  if constexpr (cuda_indexed_avail_v<Space, Primitive::scan, std::int64_t, Sum>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    if (detail::automatic_takes_cuda(options)) {  // exact counts: the same output in any order
      detail::refuse_cuda_tuning(function, options.tuning, ScanAlgorithm::three_phase);
      const detail::PathRegion region(function, "cuda");
      with_result_slot<std::int64_t>(function, space, cuda::select_temp_bytes<Selection>(n), count,
                                     [&](unsigned char* temp, std::int64_t* target) {
                                       cuda::select(function, space, selection, n, target, temp);
                                     });
      return;
    }
#endif
  }
  portable();
}

/// Scans in -> out (exclusive: seeded with `seed`) with the algorithm `options` asks for; the
/// total goes to `total` unless it is NoTotal. `in` is a View or an IndexSource, `out` a View or
/// a Sink.
template <class Space, class In, class Out, class Op, class Total>
void run_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
              const typename Out::non_const_value_type& seed, const Op& op, const ScanOptions& options,
              const Total& total) {
  using T = typename Out::non_const_value_type;
  constexpr bool views = Kokkos::is_view_v<In> && Kokkos::is_view_v<Out>;
  const std::int64_t n = std::int64_t(in.extent(0));
  if (options.determinism == Determinism::bitwise) {
    detail::check_bitwise_algorithm(function, options.algorithm);
    if constexpr (!detail::exact_in_any_order<T, Op>()) {
      if constexpr (views) {
        using Element = typename In::non_const_value_type;
        if constexpr (detail::cuda_bitwise_avail_v<Space, Element, T, Op>) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
          if (detail::is_default(options.tuning)) {
            const detail::PathRegion region(function, "cuda bitwise");
            with_result_slot<T>(function, space, cuda::bitwise_temp_bytes(n, sizeof(T)), total,
                                [&](unsigned char* temp, T* target) {
                                  cuda::bitwise_scan<T, Op>(function, space, detail::cuda_input(in), detail::cuda_output(out), n,
                                                            exclusive, seed, op, target, temp);
                                });
            return;
          }
#endif
        }
      }
      const detail::PathRegion region(function, "portable bitwise");
      bitwise_scan_into(function, space, in, out, exclusive, seed, op, options.tuning, total);
      return;
    }
  }
  constexpr bool cuda_path = views ? cuda_spec_avail_v<Space, Primitive::scan, detail::source_input_t<In>, T, Op>
                                   : cuda_indexed_avail_v<Space, Primitive::scan, T, Op>;
  if constexpr (cuda_path) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (detail::automatic_takes_cuda(options)) {
      detail::refuse_cuda_tuning(function, options.tuning, ScanAlgorithm::three_phase);
      const detail::PathRegion region(function, "cuda");
      with_result_slot<T>(function, space, cuda::scan_temp_bytes<T>(n), total, [&](unsigned char* temp, T* target) {
        if constexpr (views)
          cuda::scan<typename In::non_const_value_type, T, Op>(function, space, detail::cuda_input(in), detail::cuda_output(out),
                                                               n, exclusive, seed, op, target, temp);
        else
          cuda::scan_indexed<T, Op>(function, space, detail::cuda_source(in), detail::cuda_sink(out), n, exclusive, seed, op,
                                    target, temp);
      });
      return;
    }
#endif
  }
  constexpr bool view_out = Kokkos::is_view_v<Out>;
  ScanAlgorithm algorithm = options.algorithm;
  if (algorithm == ScanAlgorithm::automatic)  // a sink takes each output once: the single-pass scan
    algorithm = view_out ? automatic_scan_algorithm<Space>(n) : ScanAlgorithm::decoupled_lookback;
  const detail::PathRegion region(function, to_string(algorithm));
  if (algorithm == ScanAlgorithm::decoupled_lookback) {
    lookback_scan_into(function, space, in, out, exclusive, seed, op, options.tuning, total);
    return;
  }
  const ScanOptions tile_options{algorithm, options.tuning, options.determinism};
  if constexpr (view_out) {
    scan_into(function, space, in, out, exclusive, seed, op, tile_options, total);
  } else {
    // The three-phase scans write a tile, then add its offset to what they wrote: into a buffer.
    using buffer_view = Kokkos::View<T*, typename Space::memory_space>;
    const buffer_view buffer(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kprim::scan buffer"), n);
    scan_into(function, space, in, buffer, exclusive, seed, op, tile_options, total);
    Kokkos::parallel_for(function, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                         detail::DrainInto<buffer_view, Out>{buffer, out});
  }
}

}  // namespace kprim::impl
