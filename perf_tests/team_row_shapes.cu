// Experiment (not built by CMake): kprim's CUDA team scan (impl/cuda/team.cuh, cuda::team_scan) in a
// plain kernel (no Kokkos launch; 4096 elements a 256-thread block, dim3(1, 256, 1)) against two
// shapes of its row scans: `select` (each shuffle step op(lane >= d ? lower : identity, v)) and
// `stepmajor` (each shuffle distance over all 16 rows before the next). int32 -> int64 and float,
// inclusive Sum, each result checked; median of 200 launches (cudaEvent), us. Results:
// perf_tests/results/README.md ("The GPU team scan at 2^20").
//   nvcc_wrapper -I include -I <build>/include -isystem <kokkos-cuda>/include -O3 -DNDEBUG -arch=sm_90
//       -std=c++20 perf_tests/team_row_shapes.cu -L <kokkos-cuda>/lib -lkokkoscore -ldl -o team-row-shapes
#include <Kokkos_Core.hpp>
#include <kprim/impl/cuda/team.cuh>
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace kprim::impl::cuda;

template <class In, class T> struct Read { const In* x; std::int64_t first; __device__ T operator()(std::int64_t i) const { return T(x[first + i]); } };
template <class T> struct Write { T* out; std::int64_t first; __device__ void operator()(std::int64_t i, const T& v) const { out[first + i] = v; } };

// Variant B: rows scanned with select-then-op steps
template <int Items, class T, class Op>
__device__ __forceinline__ T scan_rows_select(T (&items)[Items], const Op& op, int lane) {
  T running;
#pragma unroll
  for (int row = 0; row < Items; ++row) {
    T v = items[row];
    const T identity = kprim::identity_of<T>(op);
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const T lower = shuffle_up(v, d);
      v = op(lane >= d ? lower : identity, v);
    }
    const T row_total = shuffle_index(v, 31);
    items[row] = row == 0 ? v : op(running, v);
    running = row == 0 ? row_total : op(running, row_total);
  }
  return running;
}
// Variant C: all rows step by step (step-major: each shuffle distance over all rows)
template <int Items, class T, class Op>
__device__ __forceinline__ T scan_rows_stepmajor(T (&items)[Items], const Op& op, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    T lower[Items];
#pragma unroll
    for (int row = 0; row < Items; ++row) lower[row] = shuffle_up(items[row], d);
    if (lane >= d) {
#pragma unroll
      for (int row = 0; row < Items; ++row) items[row] = op(lower[row], items[row]);
    }
  }
  T running;
#pragma unroll
  for (int row = 0; row < Items; ++row) {
    const T row_total = shuffle_index(items[row], 31);
    if (row > 0) items[row] = op(running, items[row]);
    running = row == 0 ? row_total : op(running, row_total);
  }
  return running;
}

template <int Variant, class T, class R, class W, class Op>
__device__ T team_scan_variant(std::int64_t n, const R& read, const W& write, const Op& op, T carry, T* slots) {
  constexpr int items_per_thread = team_items_v<T>;
  const int lane = int(threadIdx.y) % warp_size, warp = int(threadIdx.y) / warp_size;
  const int warps = int(blockDim.y) / warp_size;
  const std::int64_t round_size = std::int64_t(blockDim.y) * items_per_thread;
  const T identity = kprim::identity_of<T>(op);
  int parity = 0;
  for (std::int64_t round = 0; round < n; round += round_size, parity ^= 1) {
    const std::int64_t first = round + std::int64_t(warp) * warp_size * items_per_thread + lane;
    T items[items_per_thread];
    detail::load_rows<true>(items, first, n, read, identity);
    T warp_total;
    if constexpr (Variant == 1) warp_total = scan_rows_select(items, op, lane);
    else warp_total = scan_rows_stepmajor(items, op, lane);
    T* const totals = slots + parity * warps;
    if (lane == 0) totals[warp] = warp_total;
    __syncthreads();
    const T before = detail::fold_warp_totals(totals, warps, warp, op, carry);
#pragma unroll
    for (int row = 0; row < items_per_thread; ++row) items[row] = op(before, items[row]);
    detail::store_rows<true>(items, first, n, write);
  }
  return carry;
}

template <int Variant, class In, class T>
__global__ void scan_kernel(const In* x, T* out) {
  __shared__ T slots[17];
  const std::int64_t first = std::int64_t(blockIdx.x) * 4096;
  const Read<In, T> read{x, first};
  const Write<T> write{out, first};
  if constexpr (Variant == 0) team_scan<false, T>(4096, read, write, kprim::Sum{}, T(0), slots);
  else team_scan_variant<Variant, T>(4096, read, write, kprim::Sum{}, T(0), slots);
}

template <class F> double median_us(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> t;
  for (int r = 0; r < 200; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

template <class In, class T> void compare(const char* name, std::int64_t n) {
  std::vector<In> host(n); for (std::int64_t i = 0; i < n; ++i) host[i] = In((i * 7) % 13);
  std::vector<T> expected(n); for (std::int64_t b = 0; b < n; b += 4096) { T r = 0; for (std::int64_t i = b; i < b + 4096; ++i) expected[i] = r += T(host[i]); }
  In* x; T* out; cudaMalloc(&x, n * sizeof(In)); cudaMalloc(&out, n * sizeof(T));
  cudaMemcpy(x, host.data(), n * sizeof(In), cudaMemcpyHostToDevice);
  const int blocks = int(n / 4096); std::vector<T> got(n);
  auto check = [&](int v) { cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost); if (got != expected) std::printf("WRONG variant %d %s\n", v, name); };
  const dim3 team(1, 256, 1);
  double t0 = median_us([&] { scan_kernel<0><<<blocks, team>>>(x, out); }); check(0);
  double t1 = median_us([&] { scan_kernel<1><<<blocks, team>>>(x, out); }); check(1);
  double t2 = median_us([&] { scan_kernel<2><<<blocks, team>>>(x, out); }); check(2);
  std::printf("%-14s n=%-9ld kprim %7.2f  select %7.2f  stepmajor %7.2f us\n", name, long(n), t0, t1, t2);
  cudaFree(x); cudaFree(out);
}

int main() {
  for (int pass = 0; pass < 3; ++pass)
    for (std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24}) { compare<std::int32_t, std::int64_t>("int32->int64", n); compare<float, float>("float", n); }
  cudaError_t e = cudaDeviceSynchronize(); if (e != cudaSuccess) std::printf("CUDA error %s\n", cudaGetErrorString(e));
}
