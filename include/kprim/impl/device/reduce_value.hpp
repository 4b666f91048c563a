#pragma once
// Device layer: a reduce whose value comes back to the host, for ops with or without an
// identity and with or without an init value (std::reduce's forms).

#include <kprim/impl/device/adapters.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/impl/device/result_slot.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <cstdint>

namespace kprim::impl {

/// op(init, source(0), ..., source(n - 1)) on the host (init left out when null). An op without
/// identity() runs as AdjoinIdentity; it needs n > 0 or an init, else kprim::invalid_argument.
template <class T, class Space, class Source, class Op, kprim::impl::ReduceOptionsArgument Options = ReduceOptions>
T reduce_value(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
               const Options& options, const T* init) {
  if constexpr (HasIdentity<Op, T>) {
    const T value = value_on_host<T>(
        function, space, [&](const auto& result) { run_reduce(function, space, n, source, op, result, options); });
    return init ? T(op(*init, value)) : value;
  } else {
    if (n == 0) {
      if (init) return *init;
      throw_invalid_argument(function, "the input is empty and op has no identity(): the result is undefined "
                                       "(give an init value, or an op with identity())");
    }
    const Adjoined<T> value = value_on_host<Adjoined<T>>(function, space, [&](const auto& result) {
      run_reduce(function, space, n, source, AdjoinIdentity<Op, T>{op}, result, options);
    });
    return init ? T(op(*init, value.value)) : value.value;
  }
}

/// The scan every public scan runs: in (a View or an IndexSource) into out (a View or a Sink),
/// exclusive or inclusive, from `init` when given. Ops without identity() run as AdjoinIdentity
/// (the output takes the value part); a total then goes through `total` of Adjoined<T>.
/// SeededInclusive: the call may be an inclusive scan with an init (std::inclusive_scan's form),
/// which Determinism::bitwise runs through a second, seeding sink; other calls do not compile it.
template <bool SeededInclusive = false, class Space, class In, class Out, class Op, class Total, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void scan_values(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
                 const typename Out::non_const_value_type* init, const Op& op, const Options& options,
                 const Total& total) {
  using T = typename Out::non_const_value_type;
  const std::int64_t n = std::int64_t(in.extent(0));
  if constexpr (HasIdentity<Op, T>) {
    const T seed = init ? *init : identity_of<T>(op);
    // Determinism::bitwise scans fix their own order and start inclusive scans from the first
    // element; an init is then applied as each output is written (the same bits every run).
    if (!exclusive && init && options.determinism == Determinism::bitwise && !detail::exact_in_any_order<T, Op>()) {
      if constexpr (SeededInclusive && std::is_same_v<Total, NoTotal>) {
        run_scan(function, space, in, Sink<T, SeededInto<Out, Op, T>>{{out, op, *init}, n}, false,
                 identity_of<T>(op), op, options, total);
        return;
      }
    }
    run_scan(function, space, in, out, exclusive, seed, op, options, total);
  } else {
    using A = Adjoined<T>;
    const AdjoinIdentity<Op, T> adjoined_op{op};
    const A seed = init ? A(*init, true) : A(T{}, false);
    using Values = Sink<A, ValueInto<Out>>;
    const Values sink{{out}, n};
    if (!exclusive && init && options.determinism == Determinism::bitwise) {
      if constexpr (SeededInclusive && std::is_same_v<Total, NoTotal>) {
        run_scan(function, space, in, Sink<A, SeededInto<Values, AdjoinIdentity<Op, T>, A>>{{sink, adjoined_op, seed}, n},
                 false, A(T{}, false), adjoined_op, options, total);
        return;
      }
    }
    run_scan(function, space, in, sink, exclusive, seed, adjoined_op, options, total);
  }
}

}  // namespace kprim::impl
