// Hand-written CUDA reduce and dot: the library's host-side state (tickets, SM counts) and the
// precompiled combinations (api.hpp's KPRIM_CUDA_FOR_EACH_PRECOMPILED).

#include <kprim/impl/cuda/launch.cuh>

#include "common.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace kprim::impl::cuda {

void check_launch(int status, const char* what) { check(cudaError_t(status), what); }

/// One zeroed ticket per stream, allocated once: the reduce kernel takes tickets with atomicInc
/// wrapping at grid - 1, so the last block leaves it zero again and no memset is needed per call
/// (a memset per call cost ~25% of a 2^20-element reduce on an H100).
unsigned* reduce_ticket(const Kokkos::Cuda& space) {
  static std::mutex mutex;
  static std::map<cudaStream_t, unsigned*> tickets;
  std::lock_guard<std::mutex> lock(mutex);
  static bool hooked = false;
  unsigned*& ticket = tickets[space.cuda_stream()];
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

int cached_sm_count(const Kokkos::Cuda& space) {
  static std::mutex mutex;
  static std::map<int, int> counts;
  std::lock_guard<std::mutex> lock(mutex);
  int& count = counts[space.cuda_device()];
  if (count == 0) count = sm_count(space);
  return count;
}

#define KPRIM_INSTANTIATE_REDUCE(In, T, Op) \
  template void reduce<In, T, Op>(const Kokkos::Cuda&, Input<In>, std::int64_t, Op, T*, void*);
KPRIM_CUDA_FOR_EACH_PRECOMPILED(KPRIM_INSTANTIATE_REDUCE)

#define KPRIM_INSTANTIATE_DOT(In, T) \
  template void dot<In, T>(const Kokkos::Cuda&, Input<In>, Input<In>, std::int64_t, T*, void*);
KPRIM_CUDA_FOR_EACH_PRECOMPILED_DOT(KPRIM_INSTANTIATE_DOT)

}  // namespace kprim::impl::cuda
