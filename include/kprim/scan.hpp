#pragma once
/// @file
/// kprim::inclusive_scan and kprim::exclusive_scan — prefix combinations of a rank-1 View.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/reduce_value.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kprim {

namespace impl {
template <bool SeededInclusive = false, class Space, class In, class Out, class Op, class Total, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void checked_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                  const typename Out::non_const_value_type* init, const Op& op, const Options& options,
                  const Total& total) {
  using T = typename Out::non_const_value_type;
  static_assert(In::rank() == 1 && Out::rank() == 1, "kprim scans: input and output must be rank-1 Views");
  static_assert(!std::is_const_v<typename Out::value_type>, "kprim scans: the output View must not be const");
  static_assert(std::is_convertible_v<typename In::value_type, T>,
                "kprim scans: the input's value type must convert to the output's");
  static_assert(BinaryOperation<Op, T>, "kprim scans: op must provide operator()(T, T) -> T");
  check_initialized<Space>(function);
  check_view<Space>(function, "input", in);
  check_view<Space>(function, "output", out);
  check_same_extent(function, in, out);
  check_overlap(function, in, out);
  if constexpr (!std::is_same_v<Total, NoTotal>) {
    static_assert(Total::rank() == 0 && !std::is_const_v<typename Total::value_type> &&
                      std::is_same_v<typename Total::non_const_value_type, T>,
                  "kprim scans: the total must be a non-const rank-0 View of the output's value type");
    static_assert(HasIdentity<Op, T>, "kprim scans: a total View needs an op with identity() (an empty input must "
                                      "have a total)");
    check_allocated(function, "total", total);
  }
  scan_values<SeededInclusive>(function, space, in, out, exclusive, init, op, options, total);
}
}  // namespace impl

/// out(i) = op(in(0), ..., in(i)). `in` and `out` may be the same View (in place); the output's
/// value type is the accumulator. Asynchronous: the result is there once `space` is fenced.
/// `op` may be any associative functor or lambda; without identity() it still scans (an empty
/// input writes nothing), but a total View needs one.
/// @throws kprim::invalid_argument for mismatched extents, partially overlapping Views, or an
///         unallocated View or one `space` cannot access. Nothing is written then.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void inclusive_scan(const Space& space, const In& in, const Out& out, const Op& op = {},
                    const Options& options = {}) {
  impl::checked_scan("kprim::inclusive_scan", space, in, out, false, nullptr, op, options, impl::NoTotal{});
}

/// As std::inclusive_scan(first, last, d_first, op, init): out(i) = op(init, in(0), ..., in(i)).
/// `op` may be any associative functor or lambda, with or without identity(). In place allowed.
/// Asynchronous.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::OpArgument Op, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void inclusive_scan(const Space& space, const In& in, const Out& out, const Op& op,
                    const std::type_identity_t<typename Out::non_const_value_type>& init,
                    const Options& options = {}) {
  impl::checked_scan<true>("kprim::inclusive_scan", space, in, out, false, &init, op, options, impl::NoTotal{});
}

/// As above, and writes op over all of `in` to the rank-0 View `total` (any memory space).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::AnyView Total,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void inclusive_scan(const Space& space, const In& in, const Out& out, const Total& total, const Op& op = {},
                    const Options& options = {}) {
  impl::checked_scan("kprim::inclusive_scan", space, in, out, false, nullptr, op, options, total);
}

/// out(i) = op(init, in(0), ..., in(i-1)); out(0) = init. In place allowed. Asynchronous.
/// @throws kprim::invalid_argument as inclusive_scan.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void exclusive_scan(const Space& space, const In& in, const Out& out,
                    const std::type_identity_t<typename Out::non_const_value_type>& init, const Op& op = {},
                    const Options& options = {}) {
  impl::checked_scan("kprim::exclusive_scan", space, in, out, true, &init, op, options, impl::NoTotal{});
}

/// As above, and writes op(init, in(0), ..., in(n-1)) — the value after the last output — to
/// the rank-0 View `total` (any memory space).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::AnyView Total,
          impl::OpArgument Op = Sum, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void exclusive_scan(const Space& space, const In& in, const Out& out,
                    const std::type_identity_t<typename Out::non_const_value_type>& init, const Total& total,
                    const Op& op = {}, const Options& options = {}) {
  impl::checked_scan("kprim::exclusive_scan", space, in, out, true, &init, op, options, total);
}

/// inclusive_scan on the input View's default execution space instance.
template <impl::AnyView In, impl::AnyView Out, class... Rest>
void inclusive_scan(const In& in, const Out& out, const Rest&... rest) {
  kprim::inclusive_scan(impl::default_instance<In>("kprim::inclusive_scan"), in, out, rest...);
}

/// exclusive_scan on the input View's default execution space instance.
template <impl::AnyView In, impl::AnyView Out, class... Rest>
void exclusive_scan(const In& in, const Out& out, const std::type_identity_t<typename Out::non_const_value_type>& init,
                    const Rest&... rest) {
  kprim::exclusive_scan(impl::default_instance<In>("kprim::exclusive_scan"), in, out, init, rest...);
}

}  // namespace kprim
