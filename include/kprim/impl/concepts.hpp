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
template <class Op>
concept OpArgument = !Kokkos::is_view_v<Op> && !Kokkos::is_execution_space_v<Op> &&
                     !std::is_same_v<Op, ReduceOptions> && !std::is_same_v<Op, ScanOptions>;

}  // namespace kprim::impl
