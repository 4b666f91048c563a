#pragma once
/// @file
/// kprim::mpi — reduce, dot and prefix scans of a rank-1 array distributed over the ranks of an MPI
/// communicator, each rank holding one contiguous piece (rank 0 the first) in a View of any
/// execution space. Available when kprim is built with -DKPRIM_ENABLE_MPI=ON; link kprim::mpi.
///
/// Each call is collective: every rank of the communicator makes it, with the same op and options.
/// A rank's piece may be empty. The node-local work is the ordinary kprim call on `space`; what
/// crosses the network is one value per rank, staged through host memory (no CUDA-aware MPI needed:
/// the local result is on the host already, so a device-side path would not be faster).
///
/// Arguments are checked on each rank before it communicates; a rank that throws does not enter
/// the collective, so the other ranks wait in it: treat a kprim::invalid_argument from a collective
/// like any MPI error (MPI_Abort).
///
/// Order: ranks are combined in rank order (op(rank 0's part, rank 1's part, ...)), so
/// non-commutative ops are exact. Built-in ops on MPI-native types go through MPI's own
/// MPI_SUM/MPI_PROD/MPI_MIN/MPI_MAX; floating Min/Max (NaN-propagating) and other stateless ops
/// through an MPI_Op made from the op; ops with state through an MPI_Allgather of the rank values.
/// With Determinism::bitwise the rank values are always gathered and folded in rank order, so a
/// result depends only on the data and its decomposition over the ranks.

#include <kprim/config.hpp>

#if !defined(KPRIM_ENABLE_MPI)
#error "kprim/mpi.hpp: this kprim was built without MPI; configure it with -DKPRIM_ENABLE_MPI=ON"
#endif

#include <kprim/dot.hpp>
#include <kprim/impl/mpi/rank_totals.hpp>
#include <kprim/reduce.hpp>
#include <kprim/scan.hpp>

#include <mpi.h>

/// Distributed forms of reduce, dot and the scans over the ranks of an MPI communicator: each
/// rank's View is its part of one array, in rank order (kprim/mpi.hpp, target kprim::mpi).
namespace kprim::mpi {

namespace detail {
// Everything the local call would refuse, refused under this function's name before this rank
// enters a collective.
template <class Space, class View>
void check_reduce_arguments(const char* function, MPI_Comm comm, const View& x) {
  impl::mpi::check_communicator(function, comm);
  impl::check_initialized<Space>(function);
  impl::check_view<Space>(function, "input", x);
}

template <class Space, class X, class Y>
void check_dot_arguments(const char* function, MPI_Comm comm, const X& x, const Y& y) {
  impl::mpi::check_communicator(function, comm);
  impl::check_initialized<Space>(function);
  impl::check_pair<Space>(function, x, y);
}
}  // namespace detail

/// op over the whole distributed array (every rank's `x`, in rank order); the value on every rank,
/// like MPI_Allreduce. An array that is empty on every rank gives op's identity. Blocks until the
/// value is there.
/// @throws kprim::invalid_argument for a bad local View or communicator (before communicating),
///         kprim::not_initialized when Kokkos or MPI is not, kprim::mpi::error when MPI fails.
template <impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] typename View::non_const_value_type reduce(const Space& space, MPI_Comm comm, const View& x,
                                                         const Op& op = {}, const Options& options = {}) {
  constexpr const char* function = "kprim::mpi::reduce";
  detail::check_reduce_arguments<Space>(function, comm, x);
  const auto local = kprim::reduce(space, x, op, options);
  return impl::mpi::combine_all_ranks(function, comm, local, op, options.determinism);
}

/// As above, each element converted to the accumulator type Acc before it is combined
/// (e.g. `kprim::mpi::reduce<std::int64_t>(space, comm, ints)`).
template <class Acc, impl::ExecutionSpace Space, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(const Space& space, MPI_Comm comm, const View& x, const Op& op = {},
                         const Options& options = {}) {
  constexpr const char* function = "kprim::mpi::reduce";
  detail::check_reduce_arguments<Space>(function, comm, x);
  const Acc local = kprim::reduce<Acc>(space, x, op, options);
  return impl::mpi::combine_all_ranks(function, comm, local, op, options.determinism);
}

/// As above, on the View's default execution space instance.
template <impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] typename View::non_const_value_type reduce(MPI_Comm comm, const View& x, const Op& op = {},
                                                         const Options& options = {}) {
  return kprim::mpi::reduce(impl::default_instance<View>("kprim::mpi::reduce"), comm, x, op, options);
}

/// As above, in the accumulator type Acc, on the View's default execution space instance.
template <class Acc, impl::AnyView View, impl::OpArgument Op = Sum, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc reduce(MPI_Comm comm, const View& x, const Op& op = {}, const Options& options = {}) {
  return kprim::mpi::reduce<Acc>(impl::default_instance<View>("kprim::mpi::reduce"), comm, x, op, options);
}

/// Sum of x(i) * y(i) over the distributed arrays x and y (each rank's pieces of equal extent);
/// the value on every rank.
/// @throws as kprim::mpi::reduce, and kprim::invalid_argument when a rank's x and y differ in extent.
template <impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] dot_value_t<X, Y> dot(const Space& space, MPI_Comm comm, const X& x, const Y& y,
                                    const Options& options = {}) {
  constexpr const char* function = "kprim::mpi::dot";
  detail::check_dot_arguments<Space>(function, comm, x, y);
  const auto local = kprim::dot(space, x, y, options);
  return impl::mpi::combine_all_ranks(function, comm, local, Sum{}, options.determinism);
}

/// As above, accumulated in Acc.
template <class Acc, impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[nodiscard]] Acc dot(const Space& space, MPI_Comm comm, const X& x, const Y& y, const Options& options = {}) {
  constexpr const char* function = "kprim::mpi::dot";
  detail::check_dot_arguments<Space>(function, comm, x, y);
  const Acc local = kprim::dot<Acc>(space, x, y, options);
  return impl::mpi::combine_all_ranks(function, comm, local, Sum{}, options.determinism);
}

/// As above, on the default execution space instance of x's View.
template <impl::AnyView X, impl::AnyView Y, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
[[nodiscard]] dot_value_t<X, Y> dot(MPI_Comm comm, const X& x, const Y& y, const Options& options = {}) {
  return kprim::mpi::dot(impl::default_instance<X>("kprim::mpi::dot"), comm, x, y, options);
}

namespace detail {
// Local reduce -> prefix of the lower ranks' totals -> local scan seeded with it. The local
// reduce reads `in` once more than a local scan does (the price of not needing a second pass
// over `out`); the collective in between moves one value per rank.
template <class Space, class In, class Out, class Op, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void distributed_scan(const char* function, MPI_Comm comm, const Space& space, const In& in, const Out& out,
                      bool exclusive, const typename Out::non_const_value_type& init, const Op& op,
                      const Options& options) {
  using T = typename Out::non_const_value_type;
  static_assert(In::rank() == 1 && Out::rank() == 1, "kprim scans: input and output must be rank-1 Views");
  static_assert(Operation<Op, T>, "kprim scans: op must provide identity() and operator()(T, T) -> T");
  impl::mpi::check_communicator(function, comm);
  // Everything the local scan would refuse, refused before this rank enters the collective.
  impl::check_initialized<Space>(function);
  impl::check_view<Space>(function, "input", in);
  impl::check_view<Space>(function, "output", out);
  impl::check_same_extent(function, in, out);
  impl::check_overlap(function, in, out);
  impl::detail::check_algorithm(function, options);

  ReduceOptions local_options;
  local_options.determinism = options.determinism;
  const T local_total = kprim::reduce<T>(space, in, op, local_options);
  const T lower = impl::mpi::combine_lower_ranks(function, comm, local_total, op, options.determinism);
  // The bitwise scans fold a seed in only when exclusive (their documented order starts from
  // init); a bitwise inclusive scan here is op(lower ranks' total, local bitwise scan), one more
  // pass over `out` on ranks after the first.
  const bool bitwise_inclusive = !exclusive && options.determinism == Determinism::bitwise &&
                                 !impl::detail::exact_in_any_order<T, Op>();
  if (!bitwise_inclusive) {
    const T seed = exclusive ? T(op(init, lower)) : lower;
    impl::checked_scan(function, space, in, out, exclusive, &seed, op, options, impl::NoTotal{});
    return;
  }
  impl::checked_scan(function, space, in, out, false, nullptr, op, options, impl::NoTotal{});
  int rank = 0;
  impl::mpi::check_mpi(function, "MPI_Comm_rank", MPI_Comm_rank(comm, &rank));
  if (rank > 0 && out.extent(0) > 0)
    Kokkos::parallel_for("kprim::mpi::inclusive_scan: lower ranks' total",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(out.extent(0))),
                         impl::mpi::CombineFromLeft<Out, T, Op>{out, lower, op});
}
}  // namespace detail

/// Inclusive prefix scan of the distributed array: on rank r, out(i) = op(every element of
/// ranks 0..r-1, in(0), ..., in(i)) — rank r's output continues rank r-1's. `in` and `out` may
/// be the same View. Returns after the collective; `out` is written once `space` is fenced.
/// @throws as kprim::mpi::reduce, and as kprim::inclusive_scan for the local Views.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void inclusive_scan(const Space& space, MPI_Comm comm, const In& in, const Out& out, const Op& op = {},
                    const Options& options = {}) {
  detail::distributed_scan("kprim::mpi::inclusive_scan", comm, space, in, out, false,
                           identity_of<typename Out::non_const_value_type>(op), op, options);
}

/// Exclusive prefix scan of the distributed array: the global out(0) (on rank 0, or the first
/// rank with elements) is `init`; every later element is op(init, all elements before it).
/// Returns after the collective; `out` is written once `space` is fenced.
/// @throws as kprim::mpi::inclusive_scan.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void exclusive_scan(const Space& space, MPI_Comm comm, const In& in, const Out& out,
                    const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op = {},
                    const Options& options = {}) {
  detail::distributed_scan("kprim::mpi::exclusive_scan", comm, space, in, out, true, init, op, options);
}

/// inclusive_scan on the input View's default execution space instance.
template <impl::AnyView In, impl::AnyView Out, class... Rest>
void inclusive_scan(MPI_Comm comm, const In& in, const Out& out, const Rest&... rest) {
  kprim::mpi::inclusive_scan(impl::default_instance<In>("kprim::mpi::inclusive_scan"), comm, in, out, rest...);
}

/// exclusive_scan on the input View's default execution space instance.
template <impl::AnyView In, impl::AnyView Out, class... Rest>
void exclusive_scan(MPI_Comm comm, const In& in, const Out& out,
                    const std::type_identity_t<typename Out::non_const_value_type>& init, const Rest&... rest) {
  kprim::mpi::exclusive_scan(impl::default_instance<In>("kprim::mpi::exclusive_scan"), comm, in, out, init,
                             rest...);
}

// ---- the communicator-first order of 0.1.0 development builds, kept for one release ----------
// Every other kprim call takes the execution space first; these forward to that order.

/// Deprecated: kprim::mpi::reduce(space, comm, x, ...).
template <impl::ExecutionSpace Space, impl::AnyView View, class... Rest>
[[deprecated("kprim::mpi::reduce: pass the execution space first: reduce(space, comm, x, ...)")]] [[nodiscard]] auto
reduce(MPI_Comm comm, const Space& space, const View& x, const Rest&... rest) {
  return kprim::mpi::reduce(space, comm, x, rest...);
}

/// Deprecated: kprim::mpi::reduce<Acc>(space, comm, x, ...).
template <class Acc, impl::ExecutionSpace Space, impl::AnyView View, class... Rest>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[deprecated("kprim::mpi::reduce: pass the execution space first: reduce<Acc>(space, comm, x, ...)")]] [[nodiscard]] Acc
reduce(MPI_Comm comm, const Space& space, const View& x, const Rest&... rest) {
  return kprim::mpi::reduce<Acc>(space, comm, x, rest...);
}

/// Deprecated: kprim::mpi::dot(space, comm, x, y, ...).
template <impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, class... Rest>
[[deprecated("kprim::mpi::dot: pass the execution space first: dot(space, comm, x, y, ...)")]] [[nodiscard]] auto
dot(MPI_Comm comm, const Space& space, const X& x, const Y& y, const Rest&... rest) {
  return kprim::mpi::dot(space, comm, x, y, rest...);
}

/// Deprecated: kprim::mpi::dot<Acc>(space, comm, x, y, ...).
template <class Acc, impl::ExecutionSpace Space, impl::AnyView X, impl::AnyView Y, class... Rest>
  requires(!impl::ExecutionSpace<Acc> && !impl::AnyView<Acc>)
[[deprecated("kprim::mpi::dot: pass the execution space first: dot<Acc>(space, comm, x, y, ...)")]] [[nodiscard]] Acc
dot(MPI_Comm comm, const Space& space, const X& x, const Y& y, const Rest&... rest) {
  return kprim::mpi::dot<Acc>(space, comm, x, y, rest...);
}

/// Deprecated: kprim::mpi::inclusive_scan(space, comm, in, out, ...).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, class... Rest>
[[deprecated("kprim::mpi::inclusive_scan: pass the execution space first: inclusive_scan(space, comm, in, out, ...)")]]
void inclusive_scan(MPI_Comm comm, const Space& space, const In& in, const Out& out, const Rest&... rest) {
  kprim::mpi::inclusive_scan(space, comm, in, out, rest...);
}

/// Deprecated: kprim::mpi::exclusive_scan(space, comm, in, out, init, ...).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, class... Rest>
[[deprecated("kprim::mpi::exclusive_scan: pass the execution space first: exclusive_scan(space, comm, in, out, init, ...)")]]
void exclusive_scan(MPI_Comm comm, const Space& space, const In& in, const Out& out,
                    const std::type_identity_t<typename Out::non_const_value_type>& init, const Rest&... rest) {
  kprim::mpi::exclusive_scan(space, comm, in, out, init, rest...);
}

}  // namespace kprim::mpi
