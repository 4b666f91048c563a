#pragma once
// Host launchers of the hand-written CUDA paths (declared in api.hpp): the reduce, dot and scan
// kernels for any (input, accumulator, op) the trait accepts. Included where nvcc compiles the
// call, so a user op or type instantiates its kernels in the user's translation unit; the
// combinations compiled into the library are `extern template` (api.hpp) and cost a call site
// nothing but the launch.

#include <kprim/impl/cuda/api.hpp>
#include <kprim/impl/cuda/lookahead_scan.cuh>
#include <kprim/impl/cuda/reduce.cuh>
#include <kprim/impl/cuda/scan.cuh>
#include <kprim/impl/cuda/select.cuh>
#include <kprim/impl/validate.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace kprim::impl::cuda {

namespace detail {
/// Scalar elements before the 16-byte boundary when a contiguous input can take vector loads.
template <class In>
bool vector_head(const Input<In>& x, std::int64_t n, std::int64_t& head) {
  if constexpr (!vectorizable_v<In>) {
    return false;
  } else {
    if (x.stride != 1) return false;
    head = head_elements(x.data);
    if (head < 0) return false;
    head = std::min(head, n);
    return true;
  }
}

/// Refuses a launch of more tiles than a grid holds (2^31 - 1 blocks), as the portable scan does.
inline void check_tiles(const char* function, std::int64_t tiles, std::int64_t n, const char* what) {
  if (tiles > std::int64_t(0x7fffffff))
    throw_invalid_argument(function, std::string("a ") + what + " of " + std::to_string(n) +
                                         " elements needs more than 2^31 tiles on the CUDA path");
}

/// Blocks of the reduce kernel over n elements of `Source`: what sizes its temporaries and its launch.
template <class Source>
int reduce_grid(const char* function, const Kokkos::Cuda& space, std::int64_t n) {
  return reduce_grid_size<typename Source::default_policy>(cached_sm_count(function, space), n, 16 / Source::width);
}

/// The reduce kernel's temporaries: 16 bytes, then one partial per block.
template <class Source, class T>
std::size_t reduce_scratch_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n) {
  return 16 + std::size_t(reduce_grid<Source>(function, space, n)) * sizeof(T);
}

template <class T, class Op, class Source>
void launch_reduce(const char* function, const Kokkos::Cuda& space, const Source& source, std::int64_t n, const Op& op,
                   T* result, void* temp, void* state) {
  using Policy = typename Source::default_policy;
  const int grid = reduce_grid<Source>(function, space, n);
  T* const partials = reinterpret_cast<T*>(static_cast<unsigned char*>(temp) + 16);
  // The blocks' ticket, kept zeroed between calls: atomicInc wraps at grid - 1, so the last block
  // leaves it zero and no memset is needed per call (a memset per call cost ~25% of a
  // 2^20-element reduce on an H100).
  unsigned* const ticket = grid > 1 ? static_cast<unsigned*>(state) : nullptr;
  const ToolsKernel announce("kprim::cuda::reduce_kernel", space);
  reduce_kernel<T, Op, Source, Policy><<<grid, Policy::block_size, 0, space.cuda_stream()>>>(source, n, op, partials,
                                                                                            ticket, result);
  check_launch(function, int(cudaGetLastError()), "reduce kernel launch");
}
}  // namespace detail

template <class In, class T>
std::size_t reduce_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n) {
  return detail::reduce_scratch_bytes<ValueSource<In, T>, T>(function, space, n);
}

template <class In, class T>
std::size_t dot_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n) {
  return detail::reduce_scratch_bytes<ProductSource<In, T>, T>(function, space, n);
}

template <class In, class T, class Op>
void reduce(const char* function, const Kokkos::Cuda& space, Input<In> x, std::int64_t n, Op op, T* result, void* temp,
            void* state) {
  ValueSource<In, T> source{x, false, 0};
  source.vectorized = detail::vector_head(x, n, source.head);
  detail::launch_reduce(function, space, source, n, op, result, temp, state);
}

template <class In, class T>
void dot(const char* function, const Kokkos::Cuda& space, Input<In> x, Input<In> y, std::int64_t n, T* result,
         void* temp, void* state) {
  ProductSource<In, T> source{x, y, false, 0};
  std::int64_t head_y = 0;
  // Vector loads need both inputs at the same distance from a 16-byte boundary.
  source.vectorized =
      detail::vector_head(x, n, source.head) && detail::vector_head(y, n, head_y) && head_y == source.head;
  detail::launch_reduce(function, space, source, n, Sum{}, result, temp, state);
}

template <class T>
std::size_t transform_reduce_temp_bytes(const char* function, const Kokkos::Cuda& space, std::int64_t n) {
  return detail::reduce_scratch_bytes<FunctorSource<Input<T>, T>, T>(function, space, n);
}

template <class T, class Op, class Source>
void transform_reduce(const char* function, const Kokkos::Cuda& space, const Source& source, std::int64_t n, Op op,
                      T* result, void* temp, void* state) {
  detail::launch_reduce(function, space, FunctorSource<Source, T>{source}, n, op, result, temp, state);
}

template <class T>
TileStateNeed scan_tile_state(std::int64_t n) {
  // Room for any of the kernels (the lagged and look-ahead ones' smaller tiles need more tile words).
  if constexpr (lagged_scan_avail_v<T>)
    return scan_tile_state_for<T, default_scan_policy<T>, lagged_scan_policy<T>, plain_lagged_scan_policy<T>,
                               LookaheadShape<T>>(n);
  else
    return scan_tile_state_for<T, default_scan_policy<T>>(n);
}

namespace detail {
/// The single-pass scan of source into sink: for long scans of Views the look-ahead kernel (4- and
/// 8-byte types in vectors, an op with an identity, on sm_90) or the lagged one (in vectors, or element by
/// element from a strided or misaligned View into a contiguous one), the default one otherwise.
template <class T, class Op, class Source, class Sink>
void launch_any_scan(const char* function, const Kokkos::Cuda& space, const Source& source, const Sink& sink,
                     std::int64_t n, bool exclusive, T seed, Op op, T* total, TileState tile_state) {
  const int sm_count = cached_sm_count(function, space);
  if constexpr (lagged_scan_avail_v<T> && is_input_v<Source> && std::is_same_v<Sink, Output<T>>) {
    const auto launch_lagged = [&]<class Policy, bool VectorIn>() {
      check_tiles(function, scan_tiles<Policy>(n), n, "scan");
      const ToolsKernel announce("kprim::cuda::lagged_scan_kernel", space);
      check_launch(function,
                   int(launch_scan_as<T, Op, Policy, VectorIn, true>(space.cuda_stream(), source, sink, n, exclusive,
                                                                     seed, op, total, tile_state, sm_count)),
                   "scan kernel launch");
    };
    using lagged = plain_lagged_scan_policy<T, typename Source::element_type>;
    // Plain scans of 4- and 8-byte types take the look-ahead kernel on sm_90 (lookahead_scan.cuh).
    if constexpr (lookahead_scan_avail_v<T, Op> && std::is_same_v<Source, Input<T>>) {
      const int device = space.cuda_device();
      if (takes_lookahead_scan<T>(n, sm_count) && scan_moves_vectors<T, lagged>(source, sink) &&
          lookahead_scan_compiled<T, Op>(device)) {
        check_tiles(function, (n + LookaheadShape<T>::tile_size - 1) / LookaheadShape<T>::tile_size, n, "scan");
        const ToolsKernel announce("kprim::cuda::lookahead_scan_kernel", space);
        check_launch(function,
                     int(launch_lookahead_scan<T, Op>(space.cuda_stream(), device, source.data, sink.data,
                                                      n, exclusive, seed, op, total, tile_state, sm_count)),
                     "scan kernel launch");
        return;
      }
    }
    if (takes_lagged_scan<T, lagged>(n, sm_count) && scan_moves_vectors<T, lagged>(source, sink))
      return launch_lagged.template operator()<lagged, true>();
    // Strided or misaligned input into a contiguous output: element-wise loads, lagged all the same.
    // H200, 2026-11-28: a stride-2 float column 8-13% faster at 2^24-2^28 than on the default kernel,
    // strided or misaligned doubles 2-5% (perf_tests/results/README.md, "Strided columns").
    using elementwise = lagged_scan_policy<T>;
    if (takes_lagged_scan<T, elementwise>(n, sm_count) && sink.stride == 1 && is_aligned16(sink.data))
      return launch_lagged.template operator()<elementwise, false>();
  }
  check_tiles(function, scan_tiles<default_scan_policy<T>>(n), n, "scan");
  const ToolsKernel announce("kprim::cuda::scan_kernel", space);
  check_launch(function,
               int(launch_scan<T, Op, default_scan_policy<T>>(space.cuda_stream(), source, sink, n, exclusive, seed, op,
                                                              total, tile_state, sm_count)),
               "scan kernel launch");
}
}  // namespace detail

template <class In, class T, class Op>
void scan(const char* function, const Kokkos::Cuda& space, Input<In> in, Output<T> out, std::int64_t n, bool exclusive,
          T seed, Op op, T* total, TileState tile_state) {
  detail::launch_any_scan(function, space, in, out, n, exclusive, seed, op, total, tile_state);
}

template <class T, class Op, class Source, class Sink>
void scan_indexed(const char* function, const Kokkos::Cuda& space, const Source& source, const Sink& sink, std::int64_t n,
                  bool exclusive, T seed, Op op, T* total, TileState tile_state) {
  detail::launch_any_scan(function, space, source, sink, n, exclusive, seed, op, total, tile_state);
}

/// The select_kernel tuning for a selection (by the size of what it loads per element).
template <class Selection>
using select_policy_for = default_select_policy<decltype(std::declval<const Selection&>().load(std::int64_t(0)))>;

template <class Selection>
TileStateNeed select_tile_state(std::int64_t n) {
  return select_tile_state_for<select_policy_for<Selection>>(n);
}

/// Compacts [0, n) (n > 0) by `selection` (select_kernel); the count goes to *count.
template <class Selection>
void select(const char* function, const Kokkos::Cuda& space, const Selection& selection, std::int64_t n,
            std::int64_t* count, TileState tile_state) {
  using policy = select_policy_for<Selection>;
  detail::check_tiles(function, select_tiles<policy>(n), n, "compaction");
  const ToolsKernel announce("kprim::cuda::select_kernel", space);
  check_launch(function, int(launch_select<policy>(space.cuda_stream(), selection, n, count, tile_state)),
               "select kernel launch");
}

}  // namespace kprim::impl::cuda
