#pragma once
// Host entry points of the hand-written CUDA paths. Declarations only: the definitions are
// compiled into the kprim library (src/cuda/*.cu) for every (T, Op) that
// has_cuda_path_v accepts, so user code including kprim never compiles these kernels itself.

#include <kprim/impl/cuda/trait.hpp>

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)

#include <cstddef>
#include <cstdint>

namespace kprim::impl::cuda {

/// Element i of an input is data[i * stride] (stride 1 takes the vector-load paths).
template <class T>
struct Input {
  const T* data;
  std::int64_t stride;
};

/// Element i of an output is data[i * stride].
template <class T>
struct Output {
  T* data;
  std::int64_t stride;
};

/// Temporary bytes reduce() and dot() need for n elements of `value_size` bytes on `space`.
std::size_t reduce_temp_bytes(const Kokkos::Cuda& space, std::int64_t n, std::size_t value_size);

/// op over x(0 .. n) into *result (device memory), enqueued on `space`; `temp` holds
/// reduce_temp_bytes(space, n, sizeof(T)) bytes, in device memory.
template <class T, class Op>
void reduce(const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result, void* temp);

/// sum of x(i) * y(i) into *result (device memory); temp as for reduce.
template <class T>
void dot(const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result, void* temp);

/// Temporary bytes scan() needs for n elements of `value_size` bytes.
std::size_t scan_temp_bytes(std::int64_t n, std::size_t value_size);

/// Single-pass scan in -> out (may alias exactly): exclusive (seeded with `seed`) or inclusive
/// (seed must be op's identity); *total (device memory, optional) gets op(seed, all of in).
template <class T, class Op>
void scan(const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op,
          T* total, void* temp);

/// Temporary bytes the Determinism::bitwise paths need for n elements of `value_size` bytes.
std::size_t bitwise_temp_bytes(std::int64_t n, std::size_t value_size);

/// Determinism::bitwise reduce, dot and scan (float and double, the built-in ops; dot: Sum),
/// in the order of impl/team/bitwise_tree.hpp; arguments as for reduce, dot and scan, except
/// that an inclusive scan (exclusive = false) ignores `seed`, and that reduce and dot use no
/// `temp` (they keep a per-stream state that the kernel leaves zeroed; `temp` may be null).
template <class T, class Op>
void bitwise_reduce(const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result, void* temp);
template <class T>
void bitwise_dot(const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result, void* temp);
template <class T, class Op>
void bitwise_scan(const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n, bool exclusive, T seed, Op op,
                  T* total, void* temp);

}  // namespace kprim::impl::cuda

#endif
