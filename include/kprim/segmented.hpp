#pragma once
/// @file
/// kprim::segmented_reduce, kprim::segmented_inclusive_scan and kprim::segmented_exclusive_scan —
/// one reduce or scan per segment of a rank-1 View, in one pass over the whole input, for
/// segments given by CSR-style offsets (segment s is [offsets(s), offsets(s+1))) or of a fixed
/// size. Tiny, huge and empty segments in any mix run in a fixed number of launches, none per
/// segment. `Determinism::bitwise` in the options gives the same bits on every run.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/segments.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim {

namespace impl {
/// The checks of every segmented call on its input and output: per_element for the scans (out
/// as long as in, the same elements or disjoint).
template <class Space, class In, class Out>
void check_segmented_views(const char* function, const In& in, const Out& out, bool per_element) {
  static_assert(In::rank() == 1 && Out::rank() == 1, "kprim segmented calls: input and output must be rank-1 Views");
  static_assert(!std::is_const_v<typename Out::value_type>, "kprim segmented calls: the output View must not be const");
  static_assert(std::is_convertible_v<typename In::value_type, typename Out::non_const_value_type>,
                "kprim segmented calls: the input's value type must convert to the output's");
  check_initialized<Space>(function);
  check_view<Space>(function, "input", in);
  check_view<Space>(function, "output", out);
  if (per_element) {
    check_same_extent(function, in, out);
    check_overlap(function, in, out);
  }
}

/// The same, and the offsets of the CSR form (a reduce has one output per segment).
template <class Space, class In, class Offsets, class Out>
void check_segments(const char* function, const In& in, const Offsets& offsets, const Out& out, bool per_element) {
  static_assert(Offsets::rank() == 1 && std::is_integral_v<typename Offsets::value_type>,
                "kprim segmented calls: offsets must be a rank-1 View of integers");
  check_segmented_views<Space>(function, in, out, per_element);
  check_view<Space>(function, "offsets", offsets);
  if (offsets.extent(0) == 0)
    throw_invalid_argument(function, "offsets View is empty (S segments need S + 1 offsets)");
  if (!per_element && out.extent(0) + 1 != offsets.extent(0))
    throw_invalid_argument(function, "output extent " + std::to_string(out.extent(0)) + " != number of segments " +
                                         std::to_string(offsets.extent(0) - 1) + " (offsets extent - 1)");
}

/// The same for segments of `size` elements.
template <class Space, class In, class Out>
void check_fixed_segments(const char* function, const In& in, std::int64_t size, const Out& out, bool per_element) {
  check_segmented_views<Space>(function, in, out, per_element);
  if (size < 1) throw_invalid_argument(function, "segment size " + std::to_string(size) + " < 1");
  const std::int64_t n = std::int64_t(in.extent(0));
  const std::int64_t segments = n / size + (n % size != 0 ? 1 : 0);
  if (!per_element && std::int64_t(out.extent(0)) != segments)
    throw_invalid_argument(function, "output extent " + std::to_string(out.extent(0)) + " != number of segments " +
                                         std::to_string(segments) + " (input extent " + std::to_string(n) +
                                         " in segments of " + std::to_string(size) + ")");
}
}  // namespace impl

/// out(s) = op over in(offsets(s)), ..., in(offsets(s+1) - 1), for each of the S =
/// offsets.extent(0) - 1 segments; an empty segment gets op's identity. The output's value type is
/// the accumulator (float data summed into a double View sums in double). `op` is any
/// associative op with an identity (`Sum`, `Prod`, `Min`, `Max`, or one with `identity()`; the
/// overload with `init` takes any op, a lambda too); non-commutative ops keep the order.
/// Asynchronous on device spaces (host spaces return when the results are written).
///
/// Offsets are non-decreasing and within [0, in.extent(0)], as CSR row offsets (`offsets(0)`
/// need not be 0: elements outside [offsets(0), offsets(S)) are not read into any segment). The
/// offsets are read by the kernels only, so they are not checked (checking would wait for the
/// device); offsets that break this give unspecified values, but never an access out of bounds.
/// @throws kprim::invalid_argument when out's extent is not S, offsets is empty, or a View is
///         unallocated or not accessible from `space`. Nothing is written then.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Offsets, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_reduce(const Space& space, const In& in, const Offsets& offsets, const Out& out, const Op& op = {},
                      const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_reduce";
  using T = typename Out::non_const_value_type;
  static_assert(Operation<Op, T>, "kprim::segmented_reduce: op must provide operator()(T, T) -> T and an identity "
                                  "(an empty segment must have a value); the overloads with init take any op");
  impl::check_segments<Space>(function, in, offsets, out, false);
  impl::segments::marked_reduce(function, space, in, offsets, out, impl::segments::totals_of<T>(op), options);
}

/// out(s) = op(init, in(offsets(s)), ..., in(offsets(s+1) - 1)), as std::reduce per segment: an
/// empty segment gets init. `op` is any associative functor or lambda, with or without
/// identity(); e.g. `kprim::segmented_reduce(space, x, offsets, out, 0.0, KOKKOS_LAMBDA(double a,
/// double b) { return a + b; })`. As the overload above otherwise.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Offsets, impl::AnyView Out,
          impl::OpArgument Op, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_reduce(const Space& space, const In& in, const Offsets& offsets, const Out& out,
                      const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op,
                      const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_reduce";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::segmented_reduce: op must provide operator()(T, T) -> T");
  impl::check_segments<Space>(function, in, offsets, out, false);
  impl::segments::marked_reduce(function, space, in, offsets, out, impl::segments::totals_of<T>(op, init), options);
}

/// out(s) = op over in(s size), ..., in(min((s+1) size, n) - 1): segments of `segment_size`
/// elements, the last one shorter when it does not divide n; out's extent is ceil(n / size).
/// Asynchronous on device spaces.
/// @throws kprim::invalid_argument when segment_size < 1 or out's extent is not ceil(n / size).
template <impl::ExecutionSpace Space, impl::AnyView In, std::integral Size, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_reduce(const Space& space, const In& in, Size segment_size, const Out& out, const Op& op = {},
                      const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_reduce";
  using T = typename Out::non_const_value_type;
  static_assert(Operation<Op, T>, "kprim::segmented_reduce: op must provide operator()(T, T) -> T and an identity "
                                  "(the overloads with init take any op)");
  impl::check_fixed_segments<Space>(function, in, std::int64_t(segment_size), out, false);
  impl::segments::fixed_reduce(function, space, in, std::int64_t(segment_size), out, impl::segments::totals_of<T>(op),
                               options);
}

/// out(s) = op(init, in(s size), ..., in(min((s+1) size, n) - 1)): the fixed-size form from init,
/// for any op.
template <impl::ExecutionSpace Space, impl::AnyView In, std::integral Size, impl::AnyView Out, impl::OpArgument Op,
          impl::ScanOptionsArgument Options = ScanOptions>
void segmented_reduce(const Space& space, const In& in, Size segment_size, const Out& out,
                      const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op,
                      const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_reduce";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::segmented_reduce: op must provide operator()(T, T) -> T");
  impl::check_fixed_segments<Space>(function, in, std::int64_t(segment_size), out, false);
  impl::segments::fixed_reduce(function, space, in, std::int64_t(segment_size), out,
                               impl::segments::totals_of<T>(op, init), options);
}

/// out(i) = op(in(b), ..., in(i)) where b is the first element of i's segment: an inclusive scan
/// of each segment [offsets(s), offsets(s+1)), all in one pass. Elements outside every segment
/// are not written. In place (`in` and `out` the same View) allowed. `op` is any associative
/// functor or lambda, with or without identity(). Offsets as for segmented_reduce. Asynchronous on
/// device spaces.
/// @throws kprim::invalid_argument for mismatched extents, partially overlapping Views, an
///         empty offsets View, or a View that is unallocated or not accessible from `space`.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Offsets, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_inclusive_scan(const Space& space, const In& in, const Offsets& offsets, const Out& out,
                              const Op& op = {}, const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_inclusive_scan";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::segmented_inclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_segments<Space>(function, in, offsets, out, true);
  impl::segments::marked_scan<false>(function, space, in, offsets, out, T{}, op, options);
}

/// The same over segments of `segment_size` elements.
template <impl::ExecutionSpace Space, impl::AnyView In, std::integral Size, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_inclusive_scan(const Space& space, const In& in, Size segment_size, const Out& out, const Op& op = {},
                              const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_inclusive_scan";
  using T = typename Out::non_const_value_type;
  static_assert(BinaryOperation<Op, T>, "kprim::segmented_inclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_fixed_segments<Space>(function, in, std::int64_t(segment_size), out, true);
  impl::segments::fixed_scan<false>(function, space, in, std::int64_t(segment_size), out, T{}, op, options);
}

/// out(i) = op(init, in(b), ..., in(i - 1)) where b is the first element of i's segment (so
/// out(b) = init): an exclusive scan of each segment, all in one pass, for any op (with or without
/// identity()). As segmented_inclusive_scan otherwise.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Offsets, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_exclusive_scan(const Space& space, const In& in, const Offsets& offsets, const Out& out,
                              const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op = {},
                              const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_exclusive_scan";
  static_assert(BinaryOperation<Op, typename Out::non_const_value_type>,
                "kprim::segmented_exclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_segments<Space>(function, in, offsets, out, true);
  impl::segments::marked_scan<true>(function, space, in, offsets, out, init, op, options);
}

/// The same over segments of `segment_size` elements.
template <impl::ExecutionSpace Space, impl::AnyView In, std::integral Size, impl::AnyView Out,
          impl::OpArgument Op = Sum, impl::ScanOptionsArgument Options = ScanOptions>
void segmented_exclusive_scan(const Space& space, const In& in, Size segment_size, const Out& out,
                              const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op = {},
                              const Options& options = {}) {
  constexpr const char* function = "kprim::segmented_exclusive_scan";
  static_assert(BinaryOperation<Op, typename Out::non_const_value_type>,
                "kprim::segmented_exclusive_scan: op must provide operator()(T, T) -> T");
  impl::check_fixed_segments<Space>(function, in, std::int64_t(segment_size), out, true);
  impl::segments::fixed_scan<true>(function, space, in, std::int64_t(segment_size), out, init, op, options);
}

}  // namespace kprim
