// Experiment (not built by CMake; plain CUDA, no Kokkos): what the layout of a block's elements
// costs a team-level scan of 4096 elements per 256-thread block (issue #26's team target at 2^20).
//   rows:    kprim::team's layout (impl/cuda/team.cuh): lane l holds element row * 32 + l of each
//            of its warp's 16 rows (coalesced loads and stores straight from the source), and every
//            row is scanned across the warp (5 shuffle steps per element).
//   blocked: the rows staged through shared memory so that a lane holds 16 consecutive elements:
//            a sequential scan in registers and one warp scan per 16 elements (as CUB's BlockScan
//            with BlockLoad / BlockStore WARP_TRANSPOSE), 32 x 16 x sizeof(T) bytes of shared memory
//            per warp more.
//   cub:     cub::BlockLoad + BlockScan + BlockStore (WARP_TRANSPOSE), kprim-bench's peer.
// In -> T: int32 -> int64 and float -> float, inclusive Sum, each result checked on the host.
// Median of 200 launches (cudaEvent), us; results: perf_tests/results/README.md ("The GPU team
// scan at 2^20").
//   nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v perf_tests/team_scan_layouts.cu -o team-scan-layouts
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int threads = 256, items = 16, warps = threads / 32, per_block = threads * items;

template <class T>
__device__ T warp_inclusive(T v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

/// Adds to every thread the sum of the warps before its own (warp totals through shared memory).
template <class T>
__device__ T before_warp(T warp_total, int warp, int lane, T* totals) {
  if (lane == 31) totals[warp] = warp_total;
  __syncthreads();
  T before = T(0);
  for (int w = 0; w < warp; ++w) before += totals[w];
  return before;
}

template <class In, class T>
__global__ void rows_scan(const In* x, T* out) {
  __shared__ T totals[warps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::int64_t first = std::int64_t(blockIdx.x) * per_block + warp * 32 * items + lane;
  T v[items];
#pragma unroll
  for (int r = 0; r < items; ++r) v[r] = T(x[first + r * 32]);
  T running = T(0);
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const T inclusive = warp_inclusive(v[r], lane);
    v[r] = running + inclusive;
    running += __shfl_sync(0xffffffffu, inclusive, 31);
  }
  const T before = before_warp(running, warp, lane, totals);
#pragma unroll
  for (int r = 0; r < items; ++r) out[first + r * 32] = before + v[r];
}

template <class In, class T>
__global__ void blocked_scan(const In* x, T* out) {
  // A warp's 32 x 16 elements, one padding slot per 128 bytes so that both the rows and a lane's
  // run (l * 16 ...) spread over the banks (8-byte values: within each half-warp).
  constexpr int per_pad = 128 / int(sizeof(T)), padded = 32 * items + 32 * items / per_pad;
  __shared__ T staged[warps][padded];
  __shared__ T totals[warps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::int64_t first = std::int64_t(blockIdx.x) * per_block + warp * 32 * items;
  T* const mine = staged[warp];
  const auto slot = [](int k) { return k + k / per_pad; };
#pragma unroll
  for (int r = 0; r < items; ++r) mine[slot(r * 32 + lane)] = T(x[first + r * 32 + lane]);
  __syncwarp();
  T v[items];
#pragma unroll
  for (int k = 0; k < items; ++k) v[k] = mine[slot(lane * items + k)];
#pragma unroll
  for (int k = 1; k < items; ++k) v[k] += v[k - 1];
  const T thread_inclusive = warp_inclusive(v[items - 1], lane);
  const T warp_total = __shfl_sync(0xffffffffu, thread_inclusive, 31);
  const T thread_before = thread_inclusive - v[items - 1];  // exact for the integer and float data used
  const T before = before_warp(warp_total, warp, lane, totals) + thread_before;
  __syncwarp();
#pragma unroll
  for (int k = 0; k < items; ++k) mine[slot(lane * items + k)] = before + v[k];
  __syncwarp();
#pragma unroll
  for (int r = 0; r < items; ++r) out[first + r * 32 + lane] = mine[slot(r * 32 + lane)];
}

template <class In, class T>
__global__ void cub_scan(const In* x, T* out) {
  using Load = cub::BlockLoad<In, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, threads>;
  using Store = cub::BlockStore<T, threads, items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  In loaded[items];
  T values[items];
  const std::int64_t first = std::int64_t(blockIdx.x) * per_block;
  Load(temp.load).Load(x + first, loaded);
#pragma unroll
  for (int k = 0; k < items; ++k) values[k] = T(loaded[k]);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(values, values);
  __syncthreads();
  Store(temp.store).Store(out + first, values);
}

template <class Launch>
double median_us(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> t;
  for (int rep = 0; rep < 200; ++rep) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    t.push_back(ms * 1000);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class In, class T>
void compare(const char* name, std::int64_t n) {
  std::vector<In> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = In((i * 7) % 13);  // small integers: every sum exact
  std::vector<T> expected(n);
  for (std::int64_t b = 0; b < n; b += per_block) {
    T running = T(0);
    for (std::int64_t i = b; i < b + per_block; ++i) expected[i] = running += T(host[i]);
  }
  In* x;
  T* out;
  cudaMalloc(&x, n * sizeof(In));
  cudaMalloc(&out, n * sizeof(T));
  cudaMemcpy(x, host.data(), n * sizeof(In), cudaMemcpyHostToDevice);
  const int blocks = int(n / per_block);
  std::vector<T> got(n);
  const auto check = [&](const char* kernel) {
    cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
    if (got != expected) std::printf("WRONG: %s %s\n", kernel, name);
  };
  const auto rows = [&] { rows_scan<<<blocks, threads>>>(x, out); };
  const auto blocked = [&] { blocked_scan<<<blocks, threads>>>(x, out); };
  const auto cub_blocks = [&] { cub_scan<<<blocks, threads>>>(x, out); };
  const double t_rows = median_us(rows);
  check("rows");
  const double t_blocked = median_us(blocked);
  check("blocked");
  const double t_cub = median_us(cub_blocks);
  check("cub");
  std::printf("%-14s n=%-9ld rows %7.2f  blocked %7.2f  cub %7.2f us   rows/cub %.2f  blocked/cub %.2f\n", name,
              long(n), t_rows, t_blocked, t_cub, t_rows / t_cub, t_blocked / t_cub);
  cudaFree(x);
  cudaFree(out);
}

}  // namespace

int main() {
  for (int pass = 0; pass < 2; ++pass)
    for (const std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24}) {
      compare<std::int32_t, std::int64_t>("int32->int64", n);
      compare<float, float>("float", n);
    }
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(error));
}
