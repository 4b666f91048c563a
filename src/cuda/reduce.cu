// Hand-written CUDA reduce and dot: the library's host-side state (SM counts) and the precompiled
// combinations (api.hpp's KPRIM_CUDA_FOR_EACH_PRECOMPILED). Device memory comes from
// TemporaryStorage only (impl/device/temporary_storage.hpp).

#include <kprim/impl/cuda/launch.cuh>

#include "common.hpp"

#include <map>
#include <mutex>

namespace kprim::impl::cuda {

void check_launch(const char* function, int status, const char* what) { check(function, cudaError_t(status), what); }

int cached_sm_count(const char* function, const Kokkos::Cuda& space) {
  static std::mutex mutex;
  static std::map<int, int> counts;
  std::lock_guard<std::mutex> lock(mutex);
  int& count = counts[space.cuda_device()];
  if (count == 0) count = sm_count(function, space);
  return count;
}

#define KPRIM_INSTANTIATE_REDUCE(In, T, Op) \
  template void reduce<In, T, Op>(const char*, const Kokkos::Cuda&, Input<In>, std::int64_t, Op, T*, void*, void*);
KPRIM_CUDA_FOR_EACH_PRECOMPILED(KPRIM_INSTANTIATE_REDUCE)

#define KPRIM_INSTANTIATE_DOT(In, T) \
  template void dot<In, T>(const char*, const Kokkos::Cuda&, Input<In>, Input<In>, std::int64_t, T*, void*, void*);
KPRIM_CUDA_FOR_EACH_PRECOMPILED_DOT(KPRIM_INSTANTIATE_DOT)

}  // namespace kprim::impl::cuda
