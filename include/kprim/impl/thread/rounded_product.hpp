#pragma once
// Thread layer: a product rounded on its own, before anything is added to it.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kprim::impl {

/// a * b rounded to T, never fused with the sum it feeds. Compilers contract `acc + a * b` into
/// one fma (one rounding instead of two) wherever the target has one: nvcc always, g++ and clang
/// under -march=native / -ffp-contract=fast (and on aarch64 by default). Determinism::bitwise
/// promises the same bits on every space and build, so its products are rounded explicitly:
/// __fmul_rn on the GPU, and on the host an empty asm that makes the product an opaque register
/// value the compiler cannot fold into the next add (no flag the user has to remember; it blocks
/// vectorization of the product, which the bitwise paths do not rely on).
template <class T>
KOKKOS_FUNCTION T rounded_product(const T& a, const T& b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return __fmul_rn(a, b);
  else if constexpr (std::is_same_v<T, double>) return __dmul_rn(a, b);
  else return a * b;
#else
  T product = a * b;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__SSE2__))
    __asm__("" : "+x"(product));  // SSE register
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    __asm__("" : "+w"(product));  // SIMD&FP register
#else
    volatile T stored = product;  // any other compiler: a round trip through memory
    product = stored;
#endif
  }
  return product;
#endif
}

}  // namespace kprim::impl
