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
#include <kprim/transform_reduce.hpp>
#include <kprim/transform_scan.hpp>

namespace kprim {
/// The library's version, "major.minor.patch" (the same as KPRIM_VERSION_STRING).
const char* version_string();
}  // namespace kprim
