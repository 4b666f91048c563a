#pragma once
// Thread layer: a product rounded on its own, before anything is added to it.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kprim::impl {

/// a * b rounded to T. nvcc would otherwise contract a product and the sum it feeds into one
/// fma on the GPU (one rounding instead of two) while the host rounds twice, and
/// Determinism::bitwise promises the same bits on both.
template <class T>
KOKKOS_FUNCTION T rounded_product(const T& a, const T& b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return __fmul_rn(a, b);
  else if constexpr (std::is_same_v<T, double>) return __dmul_rn(a, b);
  else return a * b;
#else
  return a * b;
#endif
}

}  // namespace kprim::impl
