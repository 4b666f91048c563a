// Hand-written CUDA reduce and dot: host launchers and explicit instantiations for every
// (type, op) that kprim::impl::cuda::has_cuda_path_v accepts.

#include <kprim/impl/cuda/reduce.cuh>

#include "common.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace kprim::impl::cuda {

namespace {
/// One zeroed ticket per stream, allocated once: the reduce kernel takes tickets with atomicInc
/// wrapping at grid - 1, so the last block leaves it zero again and no memset is needed per call
/// (a memset per call cost ~25% of a 2^20-element reduce on an H100).
unsigned* ticket_for(cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<cudaStream_t, unsigned*> tickets;
  std::lock_guard<std::mutex> lock(mutex);
  static bool hooked = false;
  unsigned*& ticket = tickets[stream];
  if (ticket == nullptr) {
    if (!std::exchange(hooked, true))
      Kokkos::push_finalize_hook([] {
        std::lock_guard<std::mutex> guard(mutex);
        for (auto& [s, t] : tickets) cudaFree(t);
        tickets.clear();
      });
    check_allocation(cudaMalloc(&ticket, sizeof(unsigned)), sizeof(unsigned), "reduce ticket");
    check(cudaMemset(ticket, 0, sizeof(unsigned)), "cudaMemset (reduce ticket)");
  }
  return ticket;
}

/// SM count per device, asked once.
int cached_sm_count(const Kokkos::Cuda& space) {
  static std::mutex mutex;
  static std::map<int, int> counts;
  std::lock_guard<std::mutex> lock(mutex);
  int& count = counts[space.cuda_device()];
  if (count == 0) count = sm_count(space);
  return count;
}

template <class T, class Op, class Source>
void launch_reduce(const Kokkos::Cuda& space, const Source& source, std::int64_t n, const Op& op, T* result,
                   void* temp) {
  using Policy = typename Source::default_policy;
  const int grid = reduce_grid_size<Policy>(cached_sm_count(space), n, sizeof(T));
  T* const partials = reinterpret_cast<T*>(static_cast<unsigned char*>(temp) + 16);
  const cudaStream_t stream = space.cuda_stream();
  unsigned* const ticket = grid > 1 ? ticket_for(stream) : nullptr;
  reduce_kernel<T, Op, Source, Policy><<<grid, Policy::block_size, 0, stream>>>(source, n, op, partials, ticket, result);
  check(cudaGetLastError(), "reduce kernel launch");
}

/// Scalar elements before the 16-byte boundary, when a contiguous input can take vector loads.
template <class T>
bool vector_head(const Input<T>& x, std::int64_t n, std::int64_t& head) {
  if (x.stride != 1) return false;
  head = head_elements(x.data);
  if (head < 0) return false;
  head = std::min(head, n);
  return true;
}
}  // namespace

std::size_t reduce_temp_bytes(const Kokkos::Cuda& space, std::int64_t n, std::size_t value_size) {
  const int sm_count = cached_sm_count(space);
  using ReduceDefault = ValueSource<float>::default_policy;  // the policies do not depend on T
  using DotDefault = ProductSource<float>::default_policy;
  const int grid = std::max(reduce_grid_size<ReduceDefault>(sm_count, n, value_size),
                            reduce_grid_size<DotDefault>(sm_count, n, value_size));
  return 16 + std::size_t(grid) * value_size;  // partials of a reduce or a dot
}

template <class T, class Op>
void reduce(const Kokkos::Cuda& space, Input<T> x, std::int64_t n, Op op, T* result, void* temp) {
  ValueSource<T> source{x, false, 0};
  source.vectorized = vector_head(x, n, source.head);
  launch_reduce(space, source, n, op, result, temp);
}

template <class T>
void dot(const Kokkos::Cuda& space, Input<T> x, Input<T> y, std::int64_t n, T* result, void* temp) {
  ProductSource<T> source{x, y, false, 0};
  std::int64_t head_y = 0;
  // Vector loads need both inputs at the same distance from a 16-byte boundary.
  source.vectorized = vector_head(x, n, source.head) && vector_head(y, n, head_y) && head_y == source.head;
  launch_reduce(space, source, n, Sum{}, result, temp);
}

#define KPRIM_INSTANTIATE_REDUCE(T, Op) \
  template void reduce<T, Op>(const Kokkos::Cuda&, Input<T>, std::int64_t, Op, T*, void*);
KPRIM_CUDA_FOR_EACH_TYPE_AND_OP(KPRIM_INSTANTIATE_REDUCE)

#define KPRIM_INSTANTIATE_DOT(T, Op) \
  template void dot<T>(const Kokkos::Cuda&, Input<T>, Input<T>, std::int64_t, T*, void*);
KPRIM_INSTANTIATE_DOT(std::int32_t, Sum)
KPRIM_INSTANTIATE_DOT(std::int64_t, Sum)
KPRIM_INSTANTIATE_DOT(std::uint32_t, Sum)
KPRIM_INSTANTIATE_DOT(std::uint64_t, Sum)
KPRIM_INSTANTIATE_DOT(float, Sum)
KPRIM_INSTANTIATE_DOT(double, Sum)

}  // namespace kprim::impl::cuda
