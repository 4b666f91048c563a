// Does racecheck model a named barrier of part of the block? A hand-over that is correct by
// construction: the data warps (256 threads) sync among themselves on barrier 1, thread 0 writes a
// slot, and after a __syncthreads() of all 288 threads warp 8 reads it.
#include <cstdio>
template <bool Named>
__global__ void handover(long* out, int rounds) {
  __shared__ long slot[2];
  __shared__ int totals[8];
  const bool reader = threadIdx.x >= 256;
  long sum = 0;
  for (int r = 0; r < rounds; ++r) {
    if (!reader) {
      if (threadIdx.x % 32 == 0) totals[threadIdx.x / 32] = r + threadIdx.x;
      if constexpr (Named) asm volatile("barrier.sync 1, 256;" ::: "memory");
      else __syncwarp();
      const int t = Named ? totals[(threadIdx.x / 32 + 1) % 8] : 0;
      if (threadIdx.x == 0) slot[r & 1] = r + t;
    }
    __syncthreads();
    if (reader) sum += slot[r & 1];
  }
  if (reader) out[threadIdx.x - 256] = sum;
}
int main() {
  long* out;
  cudaMalloc(&out, 32 * sizeof(long));
  handover<true><<<2, 288>>>(out, 8);
  handover<false><<<2, 288>>>(out, 8);
  long h[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("done %ld %s\n", h[0], cudaGetErrorString(cudaGetLastError()));
}
