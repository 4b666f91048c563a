#pragma once
/// @file
/// Exceptions thrown by kprim.

#include <stdexcept>
#include <string>

namespace kprim {

/// Thrown for bad arguments (mismatched extents, unallocated or inaccessible Views, overlapping
/// input and output, impossible tuning). The message begins with the API name, e.g.
/// "kprim::inclusive_scan: output extent 9 != input extent 10". Nothing is written when it is thrown.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Thrown when kprim is called while Kokkos is not initialized (or already finalized).
class not_initialized : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace kprim
