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
};

/// Which scan algorithm to run.
enum class ScanAlgorithm {
  automatic,     ///< the fastest known for the execution space and size
  three_phase,   ///< tiles scanned in scratch (Blelloch up/down sweep), tile totals scanned recursively, offsets added
  decoupled_lookback,  ///< one pass: each tile publishes its aggregate and prefix; tiles look back over predecessors
};

/// The name of a reduce algorithm, as used in options and benchmark output ("tree", ...).
constexpr const char* to_string(ReduceAlgorithm algorithm) {
  switch (algorithm) {
    case ReduceAlgorithm::automatic: return "automatic";
    case ReduceAlgorithm::tree: return "tree";
    case ReduceAlgorithm::single_pass: return "single_pass";
  }
  return "unknown";
}

/// The name of a scan algorithm ("three_phase", ...).
constexpr const char* to_string(ScanAlgorithm algorithm) {
  switch (algorithm) {
    case ScanAlgorithm::automatic: return "automatic";
    case ScanAlgorithm::three_phase: return "three_phase";
    case ScanAlgorithm::decoupled_lookback: return "decoupled_lookback";
  }
  return "unknown";
}

/// Every selectable (non-automatic) algorithm, for benchmarks and tests that walk them all.
inline constexpr ReduceAlgorithm all_reduce_algorithms[] = {ReduceAlgorithm::tree, ReduceAlgorithm::single_pass};
inline constexpr ScanAlgorithm all_scan_algorithms[] = {ScanAlgorithm::three_phase, ScanAlgorithm::decoupled_lookback};

/// Tuning knobs shared by all primitives. Zero means "choose for the execution space".
/// Results do not depend on them, except for rounding of floating-point ops.
struct Tuning {
  int team_size = 0;         ///< threads per team (must not exceed the space's maximum)
  int items_per_thread = 0;  ///< elements each thread handles per tile (tile = team_size * items_per_thread)
  int max_teams = 0;         ///< cap on the number of teams per launch (a reduce walks its tiles grid-stride)
};

/// Options of kprim::reduce and kprim::dot.
struct ReduceOptions {
  ReduceAlgorithm algorithm = ReduceAlgorithm::automatic;
  Tuning tuning = {};
};

/// Options of kprim::inclusive_scan and kprim::exclusive_scan.
struct ScanOptions {
  ScanAlgorithm algorithm = ScanAlgorithm::automatic;
  Tuning tuning = {};
};

}  // namespace kprim
