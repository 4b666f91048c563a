// Experiment (issue #25; not built by CMake): a grid-stride 16-byte copy kernel beside cudaMemcpyAsync, so ncu
// can read a copy's DRAM and L2 throughput (NVIDIA-H200-2026-11-29-lookahead-ncu-copy.txt). nvcc -O3 -arch=sm_90.
// Copy kernels beside cudaMemcpyAsync (D2D), so ncu can read a copy's DRAM / L2 throughput.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void copy_grid_stride(const uint4* __restrict__ in, uint4* __restrict__ out, long n) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) out[i] = in[i];
}
int main() {
  const long n = 1L << 26;  // floats
  float *a, *b;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMemset(a, 1, n * 4);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int rep = 0; rep < 5; ++rep) {
    float ms;
    cudaEventRecord(e0); cudaMemcpyAsync(b, a, n * 4, cudaMemcpyDeviceToDevice); cudaEventRecord(e1); cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1); std::printf("memcpy %.1f us\n", ms * 1e3);
    for (int per : {4, 8, 16}) {
      cudaEventRecord(e0); copy_grid_stride<<<sms * per, 256>>>((const uint4*)a, (uint4*)b, n / 4); cudaEventRecord(e1); cudaEventSynchronize(e1);
      cudaEventElapsedTime(&ms, e0, e1); std::printf("kernel %d blocks/SM %.1f us\n", per, ms * 1e3);
    }
  }
  return 0;
}
