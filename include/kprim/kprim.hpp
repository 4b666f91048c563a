#pragma once
/// @file
/// kprim: parallel reduce, dot product, prefix scan, their transform and callback forms, and
/// stream compaction on Kokkos. Include this for everything.

#include <kprim/config.hpp>
#include <kprim/copy_if.hpp>
#include <kprim/dot.hpp>
#include <kprim/errors.hpp>
#include <kprim/memory.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>
#include <kprim/parallel_scan.hpp>
#include <kprim/reduce.hpp>
#include <kprim/scan.hpp>
#include <kprim/segmented.hpp>
#include <kprim/team.hpp>
#include <kprim/transform_reduce.hpp>
#include <kprim/transform_scan.hpp>

/// Parallel primitives on any Kokkos execution space: reduce (any associative op), dot, inclusive
/// and exclusive scans, their transform and callback forms (transform_reduce,
/// transform_inclusive_scan, exclusive_scan_each, parallel_scan), and compaction (copy_if,
/// copy_index_if). Every such call takes an execution space instance first (or uses the View's
/// default one), returns on the host or writes into a rank-0 View, and throws a kprim exception
/// whose message starts with the function's name on bad input, before writing anything. Inside a
/// user's TeamPolicy kernel, kprim::team has the team-level reduce and scans.
namespace kprim {
/// The library's version, "major.minor.patch" (the same as KPRIM_VERSION_STRING).
const char* version_string();
}  // namespace kprim
