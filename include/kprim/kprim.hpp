#pragma once
/// @file
/// kprim: parallel reduce, dot product and prefix scan on Kokkos. Include this for everything.

#include <kprim/config.hpp>
#include <kprim/dot.hpp>
#include <kprim/errors.hpp>
#include <kprim/memory.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>
#include <kprim/reduce.hpp>
#include <kprim/scan.hpp>

namespace kprim {
/// The library's version, "major.minor.patch" (the same as KPRIM_VERSION_STRING).
const char* version_string();
}  // namespace kprim
