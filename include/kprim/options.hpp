#pragma once
/// @file
/// Run-time options for kprim's primitives.

#include <cstdint>

namespace kprim {

/// Which reduction algorithm to run.
enum class ReduceAlgorithm {
  automatic,  ///< the fastest known for the execution space and size
  tree,       ///< per-team tiles reduced by an order-preserving pairwise tree in scratch, then partials again
};

/// Which scan algorithm to run.
enum class ScanAlgorithm {
  automatic,     ///< the fastest known for the execution space and size
  three_phase,   ///< tiles scanned in scratch (Blelloch up/down sweep), tile totals scanned recursively, offsets added
};

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
