#pragma once
// Shared host-side helpers of the compiled CUDA paths.

#include <kprim/errors.hpp>
#include <kprim/impl/validate.hpp>

#include <Kokkos_Core.hpp>

#include <cuda_runtime.h>

#include <string>

namespace kprim::impl::cuda {

/// Throws kprim::device_error naming `function` when a CUDA runtime call (or the launch before it)
/// failed: a silent failure would leave the output unwritten.
inline void check(const char* function, cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw_device_error(function, std::string(what) + " failed: " + cudaGetErrorString(status));
}

/// Streaming multiprocessors of the instance's device.
inline int sm_count(const char* function, const Kokkos::Cuda& space) {
  int count = 0;
  check(function, cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, space.cuda_device()),
        "cudaDeviceGetAttribute(multiProcessorCount)");
  return count;
}

}  // namespace kprim::impl::cuda

