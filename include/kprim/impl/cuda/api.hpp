#pragma once
// Host entry points of the hand-written CUDA paths.
//
// reduce, dot and scan are templates over the input element type In, the accumulator T and the
// op: any combination the trait (trait.hpp) accepts. Their definitions (launch.cuh) are visible
// to every translation unit nvcc compiles, so a call with a user op or type instantiates the
// kernels where it is made; the common combinations are compiled into the kprim library
// (src/cuda/*.cu) and declared `extern template` here, so those calls compile no kernel.
// The bitwise paths exist for float and double with the built-in ops only, compiled into the
// library.

#include <kprim/impl/cuda/trait.hpp>

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA)

#include <kprim/impl/device/temporary_storage.hpp>

#include <cstddef>
#include <cstdint>

namespace kprim::impl::cuda {

/// Element i of an input is data[i * stride] (stride 1 takes the vector-load paths).
template <class T>
struct Input {
  using element_type = T;
  const T* data;
  std::int64_t stride;
  KOKKOS_INLINE_FUNCTION T operator()(std::int64_t i) const { return data[i * stride]; }
};

template <class S>
inline constexpr bool is_input_v = false;
template <class T>
inline constexpr bool is_input_v<Input<T>> = true;

/// Element i of an output is data[i * stride].
template <class T>
struct Output {
  T* data;
  std::int64_t stride;
  KOKKOS_INLINE_FUNCTION void put(std::int64_t i, const T& value) const { data[i * stride] = value; }
};

/// Temporary bytes reduce() needs for n elements of In accumulated in T on `space` (computed by
/// the code that sizes its launch), and dot()'s.
template <class In, class T>
std::size_t reduce_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n);
template <class In, class T>
std::size_t dot_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n);

/// Zeroed state reduce(), dot() and transform_reduce() need (the blocks' ticket), kept per
/// instance by TemporaryStorage: the kernel leaves it zeroed.
inline constexpr std::size_t reduce_state_bytes = 16;

/// op over x(0 .. n), each element converted to T as it is loaded, into *result (device memory),
/// enqueued on `space`; `temp` holds reduce_temp_bytes<In, T>(function, space, n) bytes of device
/// memory and `state` reduce_state_bytes of zeroed device memory. Every launcher here takes the
/// public function's name first: its errors begin with it (kprim::invalid_argument for sizes it
/// cannot launch, kprim::device_error for CUDA failures).
template <class In, class T, class Op>
void reduce(const char* function, const Kokkos::Cuda& space, Input<In> x, std::int64_t n, Op op, T* result, void* temp,
            void* state);

/// sum of T(x(i)) * T(y(i)) into *result (device memory); temp (dot_temp_bytes) and state as for reduce.
template <class In, class T>
void dot(const char* function, const Kokkos::Cuda& space, Input<In> x, Input<In> y, std::int64_t n, T* result,
         void* temp, void* state);

/// The tile state (TemporaryStorage's) scan() needs for n elements accumulated in T.
template <class T>
TileStateNeed scan_tile_state(std::int64_t n);

/// Single-pass scan in -> out (may alias exactly when In is T), in converted to T as it is
/// loaded: exclusive (seeded with `seed`) or inclusive (seed must be op's identity); *total
/// (device memory, optional) gets op(seed, all of in). `tile_state`: what an instance's
/// TemporaryStorage leases for scan_tile_state<T>(n).
template <class In, class T, class Op>
void scan(const char* function, const Kokkos::Cuda& space, Input<In> in, Output<T> out, std::int64_t n, bool exclusive,
          T seed, Op op, T* total, TileState tile_state);

/// Temporary bytes transform_reduce() needs for n elements accumulated in T.
template <class T>
std::size_t transform_reduce_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n);

/// op over source(0 .. n) (any device-callable functor returning T) into *result (device
/// memory); temp holds transform_reduce_temp_bytes<T>(function, space, n) bytes, state as for
/// reduce. Instantiated where the call is compiled (a lambda has no precompiled form).
template <class T, class Op, class Source>
void transform_reduce(const char* function, const Kokkos::Cuda& space, const Source& source, std::int64_t n, Op op,
                      T* result, void* temp, void* state);

/// The single-pass scan from any source (source(i) converts to T: an Input or a functor) into
/// any sink (sink.put(i, value): an Output, or a callback); tile_state as for scan().
template <class T, class Op, class Source, class Sink>
void scan_indexed(const char* function, const Kokkos::Cuda& space, const Source& source, const Sink& sink, std::int64_t n,
                  bool exclusive, T seed, Op op, T* total, TileState tile_state);

/// Bytes of the Determinism::bitwise tree nodes for n elements of `value_size` bytes.
std::size_t bitwise_temp_bytes(std::int64_t n, std::size_t value_size);
/// The tile state (TemporaryStorage's) the Determinism::bitwise scan needs: its tree nodes.
TileStateNeed bitwise_scan_tile_state(std::int64_t n, std::size_t value_size);

/// Zeroed state the Determinism::bitwise reduce and dot need for n elements (block counter and
/// tree nodes, left zeroed by the kernel), kept per instance by TemporaryStorage.
std::size_t bitwise_reduce_state_bytes(std::int64_t n);

/// Determinism::bitwise reduce, dot and scan (float and double, the built-in ops; dot: Sum),
/// in the order of impl/team/bitwise_tree.hpp; arguments as for reduce, dot and scan, except
/// that an inclusive scan (exclusive = false) ignores `seed`, and that reduce and dot take no
/// scratch, only `state`: bitwise_reduce_state_bytes(n) of zeroed device memory.
template <class T, class Op>
void bitwise_reduce(const char* function, const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result,
                    void* state);
template <class T>
void bitwise_dot(const char* function, const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result,
                 void* state);
template <class T, class Op>
void bitwise_scan(const char* function, const Kokkos::Cuda& space, Input<T> in, Output<T> out, std::int64_t n,
                  bool exclusive, T seed, Op op, T* total, TileState tile_state);

// ---- compiled into the library (src/cuda/) ---------------------------------------------------

/// Streaming multiprocessors of the instance's device (asked once per device).
int cached_sm_count(const char* function, const Kokkos::Cuda& space);

/// Throws kprim::device_error ("<function>: <what> failed: <CUDA's error string>") unless `status`
/// is cudaSuccess (as an int, so this header needs no CUDA runtime header).
void check_launch(const char* function, int status, const char* what);

/// A hand-written kernel launch announced to Kokkos Tools as a parallel_for named `name`, so kernel
/// timers, the space-time stack and nvtx connectors see it (inside the call's "kprim::<function>
/// [cuda]" region), as they see Kokkos' own kernels. One flag test when no tool is loaded.
class ToolsKernel {
 public:
  ToolsKernel(const char* name, const Kokkos::Cuda& space) : active_(Kokkos::Tools::profileLibraryLoaded()) {
    if (active_) Kokkos::Tools::beginParallelFor(name, Kokkos::Tools::Experimental::device_id(space), &id_);
  }
  ~ToolsKernel() {
    if (active_) Kokkos::Tools::endParallelFor(id_);
  }
  ToolsKernel(const ToolsKernel&) = delete;
  ToolsKernel& operator=(const ToolsKernel&) = delete;

 private:
  bool active_;
  std::uint64_t id_ = 0;
};

// The combinations compiled into the library: every built-in type with itself and the built-in
// ops, and the widening sums applications ask for most (int32 -> int64 counts and offsets,
// float -> double sums and dots).
#define KPRIM_CUDA_FOR_EACH_OP(X, In, T) X(In, T, ::kprim::Sum) X(In, T, ::kprim::Prod) X(In, T, ::kprim::Min) X(In, T, ::kprim::Max)
#define KPRIM_CUDA_FOR_EACH_PRECOMPILED(X)       \
  KPRIM_CUDA_FOR_EACH_OP(X, std::int32_t, std::int32_t)   \
  KPRIM_CUDA_FOR_EACH_OP(X, std::int64_t, std::int64_t)   \
  KPRIM_CUDA_FOR_EACH_OP(X, std::uint32_t, std::uint32_t) \
  KPRIM_CUDA_FOR_EACH_OP(X, std::uint64_t, std::uint64_t) \
  KPRIM_CUDA_FOR_EACH_OP(X, float, float)                 \
  KPRIM_CUDA_FOR_EACH_OP(X, double, double)               \
  X(std::int32_t, std::int64_t, ::kprim::Sum)             \
  X(float, double, ::kprim::Sum)
#define KPRIM_CUDA_FOR_EACH_PRECOMPILED_DOT(X) \
  X(std::int32_t, std::int32_t) X(std::int64_t, std::int64_t) X(std::uint32_t, std::uint32_t) \
  X(std::uint64_t, std::uint64_t) X(float, float) X(double, double) X(float, double)

#define KPRIM_CUDA_DECLARE_PRECOMPILED(In, T, Op)                                                              \
  extern template void reduce<In, T, Op>(const char*, const Kokkos::Cuda&, Input<In>, std::int64_t, Op, T*, void*, \
                                         void*);                                                                \
  extern template void scan<In, T, Op>(const char*, const Kokkos::Cuda&, Input<In>, Output<T>, std::int64_t, bool, T, \
                                       Op, T*, TileState);
#define KPRIM_CUDA_DECLARE_PRECOMPILED_DOT(In, T) \
  extern template void dot<In, T>(const char*, const Kokkos::Cuda&, Input<In>, Input<In>, std::int64_t, T*, void*, \
                                  void*);
KPRIM_CUDA_FOR_EACH_PRECOMPILED(KPRIM_CUDA_DECLARE_PRECOMPILED)
KPRIM_CUDA_FOR_EACH_PRECOMPILED_DOT(KPRIM_CUDA_DECLARE_PRECOMPILED_DOT)
#undef KPRIM_CUDA_DECLARE_PRECOMPILED
#undef KPRIM_CUDA_DECLARE_PRECOMPILED_DOT

}  // namespace kprim::impl::cuda

#endif
