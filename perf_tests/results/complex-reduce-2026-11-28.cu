// complex<double> sums under several reduce shapes against CUB (session 2026-11-28 night, call 19). Not built by CMake: built like kprim-scan-tuning (nvcc_wrapper, the patched Kokkos 4.6.99) with this file as the source.
#include <kprim/impl/cuda/reduce.cuh>
#include <Kokkos_Complex.hpp>
#include "../cuda_tuning_common.hpp"
#include <cub/device/device_reduce.cuh>
#include <cstdio>
#include <tuple>
using namespace kprim_tuning;
using kprim::impl::cuda::Input;
using kprim::impl::cuda::ReducePolicy;
using kprim::impl::cuda::ValueSource;
using C = Kokkos::complex<double>;
struct Plus { __host__ __device__ C operator()(const C& a, const C& b) const { return a + b; } };
__global__ void fillc(C* x, std::int64_t n) { for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) x[i] = C(double((i * 7 + 3) % 5), double(i % 3)); }
using Candidates = std::tuple<ReducePolicy<512, 4, 4>, ReducePolicy<256, 8, 4>, ReducePolicy<512, 4, 8>, ReducePolicy<256, 8, 8>, ReducePolicy<256, 4, 16>, ReducePolicy<1024, 2, 4>>;
int main() {
  cudaDeviceProp p{}; check(cudaGetDeviceProperties(&p, 0), "props");
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::printf("# %s complex<double> sum, median of 20\nn,candidate,time_us,vs_cub\n", p.name);
  for (const std::int64_t n : {std::int64_t(1) << 22, std::int64_t(1) << 24, std::int64_t(1) << 26}) {
    C *x, *r, *parts; unsigned* t;
    check(cudaMalloc(&x, n * sizeof(C)), "m"); check(cudaMalloc(&r, sizeof(C)), "m"); check(cudaMalloc(&parts, 1 << 20), "m"); check(cudaMalloc(&t, 4), "m"); check(cudaMemset(t, 0, 4), "z");
    fillc<<<1024, 256>>>(x, n);
    std::size_t bytes = 0; check(cub::DeviceReduce::Reduce(nullptr, bytes, x, r, n, Plus{}, C(0)), "s"); void* temp; check(cudaMalloc(&temp, bytes), "m");
    const double cub = median_us(20, a, b, [&] { check(cub::DeviceReduce::Reduce(temp, bytes, x, r, n, Plus{}, C(0)), "c"); });
    std::printf("%lld,cub,%.2f,1.000\n", (long long)n, cub);
    std::apply([&](auto... ps) { auto one = [&](auto pol) { using P = decltype(pol);
      const int grid = kprim::impl::cuda::reduce_grid_size<P>(p.multiProcessorCount, n, sizeof(C));
      const double us = median_us(20, a, b, [&] { kprim::impl::cuda::reduce_kernel<C, kprim::Sum, ValueSource<C, C>, P><<<grid, P::block_size>>>(ValueSource<C, C>{Input<C>{x, 1}, true, 0}, n, kprim::Sum{}, parts, t, r); });
      std::printf("%lld,%dx%d/v%d,%.2f,%.3f\n", (long long)n, P::block_size, P::blocks_per_sm, P::vectors_in_flight, us, cub / us); }; (one(ps), ...); }, Candidates{});
    cudaFree(x); cudaFree(r); cudaFree(parts); cudaFree(t); cudaFree(temp);
  }
}
