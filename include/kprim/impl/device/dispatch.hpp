#pragma once
// Device layer, entry point: the one place where a call's algorithm is chosen (the `automatic`
// policy, the ladder rungs of the portable kernels, and the hand-written CUDA paths).

#include <kprim/impl/device/reduce_driver.hpp>
#include <kprim/impl/device/scan_driver.hpp>
#include <kprim/options.hpp>

#include <cstdint>

namespace kprim::impl {

/// Reduces source(0 .. n) with `op` into the rank-0 View `result`, with the algorithm `options` asks for.
template <class Space, class Source, class Op, class Result>
void run_reduce(const char* function, const Space& space, std::int64_t n, const Source& source, const Op& op,
                const Result& result, const ReduceOptions& options) {
  reduce_into(function, space, n, source, op, result, options);
}

/// Scans in -> out (exclusive: seeded with `seed`) with the algorithm `options` asks for; the
/// total goes to `total` unless it is NoTotal.
template <class Space, class In, class Out, class Op, class Total>
void run_scan(const char* function, const Space& space, const In& in, const Out& out, bool exclusive,
              const typename Out::non_const_value_type& seed, const Op& op, const ScanOptions& options,
              const Total& total) {
  scan_into(function, space, in, out, exclusive, seed, op, options, total);
}

}  // namespace kprim::impl
