#pragma once
/// @file
/// Control over the temporary memory kprim keeps between calls.

#include <cstddef>
#include <limits>

namespace kprim {

/// No limit on temporary storage (the default).
inline constexpr std::size_t unlimited_temporary_storage = std::numeric_limits<std::size_t>::max();

/// Caps the temporary storage kprim may hold per execution space instance (one buffer each,
/// kept between calls and freed at Kokkos::finalize). A call that would need more throws
/// kprim::allocation_error before launching anything. Applies from the next call that has to
/// grow a buffer on; buffers already held are kept. Thread-safe.
void set_temporary_storage_limit(std::size_t bytes);

/// The current cap (kprim::unlimited_temporary_storage unless set).
std::size_t temporary_storage_limit();

}  // namespace kprim
