#pragma once
// Device layer, entry point: the one place where a call's algorithm is chosen (the `automatic`
// policy, the ladder rungs of the portable kernels, and the hand-written CUDA paths).

#include <kprim/impl/cuda/api.hpp>
#include <kprim/impl/cuda/trait.hpp>
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

template <class T, class X, class Y>
struct Products;  // dot's source (kprim/dot.hpp)

namespace detail {
template <class Source>
struct is_products : std::false_type {};
template <class T, class X, class Y>
struct is_products<Products<T, X, Y>> : std::true_type {};

constexpr bool is_default(const Tuning& tuning) {
  return tuning.team_size == 0 && tuning.items_per_thread == 0 && tuning.max_teams == 0;
}

/// True when the hand-written CUDA path runs: the trait says one exists for (Space, T, Op), the
/// input holds exactly T, and the call asked for the automatic algorithm with the default shape
/// (Tuning's knobs belong to the portable kernels: a call that sets one runs those).
template <class Space, class T, class Op, class Source>
constexpr bool cuda_path_applies() {
  if constexpr (!cuda::has_cuda_path_v<Space, T, Op>) {
    return false;
  } else if constexpr (is_products<Source>::value) {
    return std::is_same_v<typename decltype(Source::x)::non_const_value_type, T> &&
           std::is_same_v<typename decltype(Source::y)::non_const_value_type, T>;
  } else {
    return std::is_same_v<typename Source::non_const_value_type, T>;
  }
}

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
#endif

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
  if (options.determinism == Determinism::bitwise) {
    detail::check_bitwise_algorithm(function, options.algorithm);
    if constexpr (!detail::exact_in_any_order<T, Op>()) {
      if constexpr (detail::cuda_path_applies<Space, T, Op, Source>()) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
        if (detail::is_default(options.tuning)) {
          // No temporaries: the CUDA bitwise reduce keeps its own per-stream state.
          with_result_slot<T>(function, space, 0, result, [&](unsigned char* temp, T* target) {
            if constexpr (detail::is_products<Source>::value)
              cuda::bitwise_dot<T>(space, detail::cuda_input(source.x), detail::cuda_input(source.y), n, target, temp);
            else
              cuda::bitwise_reduce<T, Op>(space, detail::cuda_input(source), n, op, target, temp);
          });
          return;
        }
#endif
      }
      bitwise_reduce_into(function, space, n, source, op, result, options.tuning);
      return;
    }
  }
  if constexpr (detail::cuda_path_applies<Space, T, Op, Source>()) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (options.algorithm == ReduceAlgorithm::automatic && detail::is_default(options.tuning)) {
      with_result_slot<T>(function, space, cuda::reduce_temp_bytes(space, n, sizeof(T)), result,
                                  [&](unsigned char* temp, T* target) {
                                    if constexpr (detail::is_products<Source>::value)
                                      cuda::dot<T>(space, detail::cuda_input(source.x), detail::cuda_input(source.y),
                                                   n, target, temp);
                                    else
                                      cuda::reduce<T, Op>(space, detail::cuda_input(source), n, op, target, temp);
                                  });
      return;
    }
#endif
  }
  const ReduceAlgorithm algorithm =
      options.algorithm == ReduceAlgorithm::automatic ? automatic_reduce_algorithm<Space>(n) : options.algorithm;
  if (algorithm == ReduceAlgorithm::single_pass) {
    single_pass_reduce_into(function, space, n, source, op, result, options.tuning);
    return;
  }
  reduce_into(function, space, n, source, op, result, ReduceOptions{algorithm, options.tuning, options.determinism});
}

/// Scans in -> out (exclusive: seeded with `seed`) with the algorithm `options` asks for; the
/// total goes to `total` unless it is NoTotal.
template <class Space, class In, class Out, class Op, class Total>
void run_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
              const typename Out::non_const_value_type& seed, const Op& op, const ScanOptions& options,
              const Total& total) {
  using T = typename Out::non_const_value_type;
  if (options.determinism == Determinism::bitwise) {
    detail::check_bitwise_algorithm(function, options.algorithm);
    if constexpr (!detail::exact_in_any_order<T, Op>()) {
      if constexpr (detail::cuda_path_applies<Space, T, Op, In>()) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
        if (detail::is_default(options.tuning)) {
          const std::int64_t n = std::int64_t(in.extent(0));
          with_result_slot<T>(function, space, cuda::bitwise_temp_bytes(n, sizeof(T)), total, [&](unsigned char* temp, T* target) {
            cuda::bitwise_scan<T, Op>(space, detail::cuda_input(in), detail::cuda_output(out), n, exclusive, seed, op,
                                      target, temp);
          });
          return;
        }
#endif
      }
      bitwise_scan_into(function, space, in, out, exclusive, seed, op, options.tuning, total);
      return;
    }
  }
  if constexpr (detail::cuda_path_applies<Space, T, Op, In>()) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)
    if (options.algorithm == ScanAlgorithm::automatic && detail::is_default(options.tuning)) {
      const std::int64_t n = std::int64_t(in.extent(0));
      with_result_slot<T>(function, space, cuda::scan_temp_bytes(n, sizeof(T)), total, [&](unsigned char* temp, T* target) {
        cuda::scan<T, Op>(space, detail::cuda_input(in), detail::cuda_output(out), n, exclusive, seed, op, target,
                          temp);
      });
      return;
    }
#endif
  }
  const ScanAlgorithm algorithm = options.algorithm == ScanAlgorithm::automatic
                                      ? automatic_scan_algorithm<Space>(std::int64_t(in.extent(0)))
                                      : options.algorithm;
  if (algorithm == ScanAlgorithm::decoupled_lookback) {
    lookback_scan_into(function, space, in, out, exclusive, seed, op, options.tuning, total);
    return;
  }
  scan_into(function, space, in, out, exclusive, seed, op, ScanOptions{algorithm, options.tuning, options.determinism}, total);
}

}  // namespace kprim::impl
