#pragma once
// Constraints that tell the public overloads apart (space or not, op or View).

#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kprim::impl {

template <class S>
concept ExecutionSpace = Kokkos::is_execution_space_v<S>;

template <class V>
concept AnyView = Kokkos::is_view_v<V>;

/// An op argument: anything that is not a View, an execution space or an options struct
/// (whether it is a valid op for the value type is checked with a static_assert, which gives a
/// clearer message than an overload failure).
template <class Options>
inline constexpr bool is_reduce_options_v = std::is_same_v<Options, ReduceOptions> ||
                                            std::is_same_v<Options, AnyAlgorithm<ReduceOptions>>;
template <auto A>
inline constexpr bool is_reduce_options_v<AlgorithmOptions<A>> = std::is_same_v<decltype(A), ReduceAlgorithm>;
template <class Options>
inline constexpr bool is_scan_options_v = std::is_same_v<Options, ScanOptions> ||
                                          std::is_same_v<Options, AnyAlgorithm<ScanOptions>>;
template <auto A>
inline constexpr bool is_scan_options_v<AlgorithmOptions<A>> = std::is_same_v<decltype(A), ScanAlgorithm>;

/// The options of a reduce or dot: ReduceOptions (automatic), ReduceWith<A> (A alone) or
/// AnyAlgorithm<ReduceOptions> (every algorithm).
template <class Options>
concept ReduceOptionsArgument = is_reduce_options_v<Options>;
/// The options of a scan, as ReduceOptionsArgument.
template <class Options>
concept ScanOptionsArgument = is_scan_options_v<Options>;

template <class Op>
concept OpArgument = !Kokkos::is_view_v<Op> && !Kokkos::is_execution_space_v<Op> && !is_reduce_options_v<Op> &&
                     !is_scan_options_v<Op>;

}  // namespace kprim::impl
