#pragma once
/// @file
/// Run-time options for kprim's primitives.

#include <cstdint>

namespace kprim {

/// Which reduction algorithm to run.
enum class ReduceAlgorithm {
  automatic,  ///< the fastest known for the execution space and size
  tree,       ///< per-team tiles reduced by an order-preserving pairwise tree in scratch, then partials again
  single_pass,  ///< one launch: each team folds a chunk with independent chains, the last team to finish folds the partials
  // The reduction ladder of the seeds (Harris; "CUDA by Example"), rung by rung. Each team walks
  // its tiles in chunks, reduces every chunk with one tree in scratch, and keeps a running total;
  // the partials of the teams are reduced again the same way. Every rung keeps left-to-right order
  // for ops that are not commutative.
  neighbored,              ///< 1: neighbored pairs, stride doubling, thread i active when i % (2 stride) == 0 (divergent)
  neighbored_less,         ///< 2: the same pairs, remapped so the active threads are contiguous
  interleaved,             ///< 3: interleaved pairs, stride halving from half the team (sequential addressing)
  unroll2,                 ///< 4: interleaved, each thread first combines 2 elements while loading
  unroll8,                 ///< 5: interleaved, each thread first combines 8 elements while loading
  unroll_warps8,           ///< 6: unroll8, the last 32 values finished without team barriers (warp step)
  complete_unroll_warps8,  ///< 7: unroll_warps8 with the tree unrolled for a compile-time team size (a power of two <= 1024)
  grid_stride,             ///< 8: each thread folds a grid-stride loop over the input, then one interleaved tree per team
};

/// Which scan algorithm to run.
enum class ScanAlgorithm {
  automatic,     ///< the fastest known for the execution space and size
  three_phase,   ///< tiles scanned in scratch (Blelloch up/down sweep), tile totals scanned recursively, offsets added
  decoupled_lookback,  ///< one pass: each tile publishes its aggregate and prefix; tiles look back over predecessors
  // The scan ladder of the seeds, as the tier-1 tile kernel of the three-phase driver (so every
  // rung handles any n, inclusive and exclusive, in place). Each works on every element of the
  // tile in scratch; `three_phase` above is the raking tile (a serial run per thread, Blelloch
  // over the per-thread folds).
  hillis_steele,  ///< 1: naive inclusive scan over the tile, double-buffered, O(tile log tile) work
  blelloch,       ///< 2: work-efficient up-sweep/down-sweep over the tile, padded against bank conflicts
  brent_kung,     ///< 3: PMPP's Brent-Kung inclusive scan: reduction tree, then distribution tree
};

/// The name of a reduce algorithm, as used in options and benchmark output ("tree", ...).
constexpr const char* to_string(ReduceAlgorithm algorithm) {
  switch (algorithm) {
    case ReduceAlgorithm::automatic: return "automatic";
    case ReduceAlgorithm::tree: return "tree";
    case ReduceAlgorithm::single_pass: return "single_pass";
    case ReduceAlgorithm::neighbored: return "neighbored";
    case ReduceAlgorithm::neighbored_less: return "neighbored_less";
    case ReduceAlgorithm::interleaved: return "interleaved";
    case ReduceAlgorithm::unroll2: return "unroll2";
    case ReduceAlgorithm::unroll8: return "unroll8";
    case ReduceAlgorithm::unroll_warps8: return "unroll_warps8";
    case ReduceAlgorithm::complete_unroll_warps8: return "complete_unroll_warps8";
    case ReduceAlgorithm::grid_stride: return "grid_stride";
  }
  return "unknown";
}

/// The name of a scan algorithm ("three_phase", ...).
constexpr const char* to_string(ScanAlgorithm algorithm) {
  switch (algorithm) {
    case ScanAlgorithm::automatic: return "automatic";
    case ScanAlgorithm::three_phase: return "three_phase";
    case ScanAlgorithm::decoupled_lookback: return "decoupled_lookback";
    case ScanAlgorithm::hillis_steele: return "hillis_steele";
    case ScanAlgorithm::blelloch: return "blelloch";
    case ScanAlgorithm::brent_kung: return "brent_kung";
  }
  return "unknown";
}

/// Every selectable (non-automatic) algorithm, for benchmarks and tests that walk them all: the
/// seeds' ladder in rung order first (perf_tests/ladder_table.py computes step speedups in this
/// order), then kprim's own algorithms.
inline constexpr ReduceAlgorithm all_reduce_algorithms[] = {
    ReduceAlgorithm::neighbored,    ReduceAlgorithm::neighbored_less, ReduceAlgorithm::interleaved,
    ReduceAlgorithm::unroll2,       ReduceAlgorithm::unroll8,         ReduceAlgorithm::unroll_warps8,
    ReduceAlgorithm::complete_unroll_warps8, ReduceAlgorithm::grid_stride, ReduceAlgorithm::tree,
    ReduceAlgorithm::single_pass};
inline constexpr ScanAlgorithm all_scan_algorithms[] = {ScanAlgorithm::hillis_steele, ScanAlgorithm::blelloch,
                                                        ScanAlgorithm::brent_kung, ScanAlgorithm::three_phase,
                                                        ScanAlgorithm::decoupled_lookback};

/// The rungs of the seeds' reduction ladder, in order (rung 1 first).
inline constexpr ReduceAlgorithm reduce_ladder[] = {
    ReduceAlgorithm::neighbored, ReduceAlgorithm::neighbored_less, ReduceAlgorithm::interleaved,
    ReduceAlgorithm::unroll2,    ReduceAlgorithm::unroll8,         ReduceAlgorithm::unroll_warps8,
    ReduceAlgorithm::complete_unroll_warps8, ReduceAlgorithm::grid_stride};
/// The rungs of the seeds' scan ladder, in order (rung 1 first).
inline constexpr ScanAlgorithm scan_ladder[] = {ScanAlgorithm::hillis_steele, ScanAlgorithm::blelloch,
                                                ScanAlgorithm::brent_kung};

/// How far results are reproducible (see docs/reproducibility.md).
enum class Determinism {
  /// The fastest algorithm for the space. Reduce and dot give the same bits run after run on the
  /// same device with the same tuning; scans on the single-pass paths may differ in the last bits
  /// of floating-point results from run to run (their look-back combines whatever is published).
  fastest,
  /// The same bits for the same input, op and n on every run, team size, tile count, thread count,
  /// GPU and execution space: the order of operations is a function of n alone (docs/reproducibility.md gives it).
  /// Integer types with the built-in ops are exact in any order and keep the fastest paths.
  bitwise,
};

/// The name of a determinism mode ("fastest", "bitwise").
constexpr const char* to_string(Determinism determinism) {
  return determinism == Determinism::bitwise ? "bitwise" : "fastest";
}

/// Tuning knobs shared by all primitives. Zero means "choose for the execution space".
/// Results do not depend on them, except for rounding of floating-point ops.
struct Tuning {
  int team_size = 0;         ///< threads per team (must not exceed the space's maximum)
  int items_per_thread = 0;  ///< elements each thread handles per tile (tile = team_size * items_per_thread)
  int max_teams = 0;         ///< cap on the number of teams per launch (a reduce walks its tiles grid-stride)
};

/// Options of kprim::reduce and kprim::dot. A call passing them (or none) compiles only what
/// `automatic` runs on its space; to run another algorithm, name it at compile time with
/// ReduceWith, or choose it at run time with any_algorithm().
struct ReduceOptions {
  /// `automatic`: any other value here throws kprim::invalid_argument unless the options are
  /// wrapped in any_algorithm().
  ReduceAlgorithm algorithm = ReduceAlgorithm::automatic;
  Tuning tuning = {};
  /// Determinism::bitwise needs algorithm = automatic (it fixes the order itself) and ignores
  /// tuning.items_per_thread (its tiles are fixed); team_size and max_teams still apply.
  Determinism determinism = Determinism::fastest;
};

/// Options of kprim::inclusive_scan and kprim::exclusive_scan (and the other scans): as
/// ReduceOptions, with ScanWith and any_algorithm().
struct ScanOptions {
  /// As ReduceOptions::algorithm.
  ScanAlgorithm algorithm = ScanAlgorithm::automatic;
  Tuning tuning = {};
  /// As ReduceOptions::determinism.
  Determinism determinism = Determinism::fastest;
};

/// Options that name an algorithm (a ReduceAlgorithm or ScanAlgorithm other than automatic) at
/// compile time: the call compiles that algorithm's kernels alone. Runs with Determinism::fastest
/// (Determinism::bitwise fixes its own order: plain options). Spelled ReduceWith / ScanWith.
template <auto Algorithm>
struct AlgorithmOptions {
  static_assert(Algorithm != decltype(Algorithm)::automatic,
                "kprim::ReduceWith / ScanWith name an algorithm; for automatic pass ReduceOptions / ScanOptions");
  static constexpr decltype(Algorithm) algorithm = Algorithm;
  static constexpr Determinism determinism = Determinism::fastest;
  Tuning tuning = {};
};

/// A reduce algorithm named at compile time, in place of ReduceOptions, e.g.
/// `kprim::reduce(space, x, kprim::Sum{}, kprim::ReduceWith<kprim::ReduceAlgorithm::unroll8>{.tuning = {.team_size = 256}})`.
template <ReduceAlgorithm Algorithm>
using ReduceWith = AlgorithmOptions<Algorithm>;
/// A scan algorithm named at compile time, in place of ScanOptions.
template <ScanAlgorithm Algorithm>
using ScanWith = AlgorithmOptions<Algorithm>;

/// Options whose algorithm is chosen at run time (made by any_algorithm()): the call compiles
/// every algorithm (tens of kernels per call site), so keep it to tools and benchmarks.
template <class Options>
struct AnyAlgorithm : Options {};

/// The run-time choice of algorithm: `kprim::reduce(space, x, op, kprim::any_algorithm(options))`
/// runs `options.algorithm`, whichever it is, and compiles them all.
inline AnyAlgorithm<ReduceOptions> any_algorithm(const ReduceOptions& options) { return {options}; }
/// As above, for the scans.
inline AnyAlgorithm<ScanOptions> any_algorithm(const ScanOptions& options) { return {options}; }

}  // namespace kprim
