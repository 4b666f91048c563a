#pragma once
// Shared host-side helpers of the compiled CUDA paths.

#include <kprim/errors.hpp>

#include <Kokkos_Core.hpp>

#include <cuda_runtime.h>

#include <string>

namespace kprim::impl::cuda {

/// Throws when a CUDA runtime call (or the launch before it) failed: a silent failure would
/// leave the output unwritten.
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("kprim (CUDA path): ") + what + " failed: " + cudaGetErrorString(status));
}

/// As check, for a cudaMalloc: a failure is a kprim::allocation_error (out of device memory).
inline void check_allocation(cudaError_t status, std::size_t bytes, const char* what) {
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: clear it for the next call
    throw kprim::allocation_error(std::string("kprim (CUDA path): cannot allocate ") + std::to_string(bytes) +
                                  " bytes of device memory for the " + what + ": " + cudaGetErrorString(status));
  }
}

/// Streaming multiprocessors of the instance's device.
inline int sm_count(const Kokkos::Cuda& space) {
  int count = 0;
  check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, space.cuda_device()),
        "cudaDeviceGetAttribute(multiProcessorCount)");
  return count;
}

}  // namespace kprim::impl::cuda

