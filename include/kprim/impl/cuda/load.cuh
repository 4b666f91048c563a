#pragma once
// Thread layer, hand-written CUDA: the loads the device kernels use. 16-byte vector loads where
// the address allows, scalar loads otherwise, and the element values a kernel combines.

#include <kprim/impl/cuda/api.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

/// Sixteen bytes of T, loaded and stored in one instruction.
template <class T>
struct alignas(16) Vector16 {
  static constexpr int size = 16 / sizeof(T);
  T lane[size];
};

template <class T>
__device__ __forceinline__ Vector16<T> load_vector(const T* aligned) {
  Vector16<T> v;
  if constexpr (sizeof(T) == 4) {
    const int4 raw = __ldg(reinterpret_cast<const int4*>(aligned));
    __builtin_memcpy(&v, &raw, 16);
  } else {
    const longlong2 raw = __ldg(reinterpret_cast<const longlong2*>(aligned));
    __builtin_memcpy(&v, &raw, 16);
  }
  return v;
}

template <class T>
__device__ __forceinline__ void store_vector(T* aligned, const Vector16<T>& v) {
  if constexpr (sizeof(T) == 4) {
    int4 raw;
    __builtin_memcpy(&raw, &v, 16);
    *reinterpret_cast<int4*>(aligned) = raw;
  } else {
    longlong2 raw;
    __builtin_memcpy(&raw, &v, 16);
    *reinterpret_cast<longlong2*>(aligned) = raw;
  }
}

__host__ __device__ inline bool is_aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0; }

/// Elements before the first 16-byte boundary of a contiguous input (its scalar head), or -1
/// when no element is aligned (T's own alignment broken, never for Kokkos allocations).
template <class T>
__host__ __device__ inline std::int64_t head_elements(const T* p) {
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
  if (address % sizeof(T) != 0) return -1;
  return std::int64_t(((16 - address % 16) % 16) / sizeof(T));
}

}  // namespace kprim::impl::cuda
