// kprim-reduce-tuning: times the hand-written CUDA reduce kernel (sum, and the dot product's
// product-sum) under several tuning policies (block size, blocks per SM, vectors in flight per
// thread, grid-stride or block-contiguous vectors) against CUB and a device copy, in one process,
// on raw device memory. It is how the defaults in include/kprim/impl/cuda/reduce.cuh were chosen.
//
// Every policy's result is checked against CUB's (exactly for integers, to a relative 1e-5 for
// floating point); a mismatch aborts. Output: one CSV row per (primitive, type, n, candidate):
//   primitive,type,n,candidate,time_us,gbps,vs_cub,vs_copy
// GB/s counts the ideal traffic (reduce n reads, dot 2n); the copy's GB/s counts its 2n. Results
// go to device memory on both sides (kernels against kernels). Median of --reps timed calls after
// two warm-up calls. CUB's dot is DeviceReduce::TransformReduce over the element products, as in
// kprim-bench.
//
// Usage: kprim-reduce-tuning [--reps=N] [--log2=20,24,26,28] [--sizes=N,...] [--types=float,double,int32,int64]
//                            [--candidates=K]   (only the first K policies: 2 = today's defaults)

#include <kprim/impl/cuda/reduce.cuh>

#include "cuda_tuning_common.hpp"

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace kprim_tuning;
using kprim::impl::cuda::Input;
using kprim::impl::cuda::ProductSource;
using kprim::impl::cuda::ReducePolicy;
using kprim::impl::cuda::ValueSource;

/// A candidate the kernel does not ship: each block reads one contiguous chunk of the vectors
/// (ReducePolicy deals them out grid-stride). Lost on the H100 and H200 (perf_tests/results).
template <int BlockSize, int BlocksPerSM, int VectorsInFlight>
struct ChunkedPolicy : ReducePolicy<BlockSize, BlocksPerSM, VectorsInFlight> {
  static constexpr bool block_chunks = true;
  __device__ static kprim::impl::cuda::VectorRange vector_range(std::int64_t vectors) {
    const std::int64_t chunk = (vectors + gridDim.x - 1) / gridDim.x;
    const std::int64_t chunk_end = (std::int64_t(blockIdx.x) + 1) * chunk;
    return {std::int64_t(blockIdx.x) * chunk + threadIdx.x, BlockSize, chunk_end < vectors ? chunk_end : vectors};
  }
};

// Candidates: today's defaults first (512 x 4 / 4 vectors for reduce, 256 x 4 / 8 for dot), then
// the default of both until 2026-11-23 (256 x 8 / 4), then the rest of the first sweep.
// ReducePolicy<threads, blocks per SM, vectors in flight per thread>; ChunkedPolicy the same.
using Candidates = std::tuple<ReducePolicy<512, 4, 4>, ReducePolicy<256, 4, 8>, ReducePolicy<256, 8, 4>,
                              ReducePolicy<256, 8, 8>, ReducePolicy<128, 16, 4>, ReducePolicy<256, 8, 2>,
                              ChunkedPolicy<256, 8, 4>, ChunkedPolicy<256, 8, 8>, ChunkedPolicy<256, 4, 16>>;

template <class Policy>
std::string name_of() {
  constexpr bool chunks = requires { Policy::block_chunks; };
  return std::to_string(Policy::block_size) + "x" + std::to_string(Policy::blocks_per_sm) + "/v" +
         std::to_string(Policy::vectors_in_flight) + (chunks ? "/chunks" : "/gridstride");
}

template <class T>
struct Product {
  const T* x;
  const T* y;
  __device__ T operator()(std::int64_t i) const { return x[i] * y[i]; }
};

template <class T>
void run_type(const char* type, const std::vector<std::int64_t>& sizes, int reps, int max_candidates, int sm_count) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (const std::int64_t n : sizes) {
    T *x = nullptr, *y = nullptr, *result = nullptr, *partials = nullptr;
    unsigned* ticket = nullptr;
    check(cudaMalloc(&x, n * sizeof(T)), "cudaMalloc x");
    check(cudaMalloc(&y, n * sizeof(T)), "cudaMalloc y");
    check(cudaMalloc(&result, sizeof(T)), "cudaMalloc result");
    check(cudaMalloc(&partials, 1 << 20), "cudaMalloc partials");
    check(cudaMalloc(&ticket, sizeof(unsigned)), "cudaMalloc ticket");
    check(cudaMemset(ticket, 0, sizeof(unsigned)), "cudaMemset ticket");
    fill<<<1024, 256>>>(x, n);
    fill<<<1024, 256>>>(y, n);
    const double copy_us = median_us(reps, start, stop, [&] {
      check(cudaMemcpyAsync(y, x, n * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    });
    fill<<<1024, 256>>>(y, n);
    for (const bool dot : {false, true}) {
      const char* primitive = dot ? "dot" : "reduce";
      const double bytes = (dot ? 2.0 : 1.0) * double(n) * sizeof(T);
      auto row = [&](const std::string& candidate, double us, double cub_us) {
        std::printf("%s,%s,%lld,%s,%.2f,%.1f,%.3f,%.3f\n", primitive, type, static_cast<long long>(n),
                    candidate.c_str(), us, bytes / us / 1e3, cub_us / us, (bytes / us) / (2.0 * n * sizeof(T) / copy_us));
      };
      std::size_t cub_bytes = 0;
      const thrust::counting_iterator<std::int64_t> index(0);
      const Product<T> product{x, y};
      if (dot)
        check(cub::DeviceReduce::TransformReduce(nullptr, cub_bytes, index, result, n, cuda::std::plus<T>{}, product, T(0)),
              "cub temp size");
      else
        check(cub::DeviceReduce::Sum(nullptr, cub_bytes, x, result, n), "cub temp size");
      void* cub_temp = nullptr;
      check(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
      const double cub_us = median_us(reps, start, stop, [&] {
        if (dot)
          check(cub::DeviceReduce::TransformReduce(cub_temp, cub_bytes, index, result, n, cuda::std::plus<T>{}, product,
                                                   T(0)),
                "cub");
        else
          check(cub::DeviceReduce::Sum(cub_temp, cub_bytes, x, result, n), "cub");
      });
      std::vector<T> expected(1), got(1);
      check(cudaMemcpy(expected.data(), result, sizeof(T), cudaMemcpyDeviceToHost), "copy back");
      row("cub", cub_us, cub_us);
      std::apply(
          [&](auto... policies) {
            int candidate = 0;
            auto one = [&](auto policy) {
              using Policy = decltype(policy);
              if (candidate++ >= max_candidates) return;
              const int grid = kprim::impl::cuda::reduce_grid_size<Policy>(sm_count, n, sizeof(T));
              const double us = median_us(reps, start, stop, [&] {
                if (dot)
                  kprim::impl::cuda::reduce_kernel<T, kprim::Sum, ProductSource<T, T>, Policy>
                      <<<grid, Policy::block_size>>>(ProductSource<T, T>{Input<T>{x, 1}, Input<T>{y, 1}, true, 0}, n,
                                                     kprim::Sum{}, partials, ticket, result);
                else
                  kprim::impl::cuda::reduce_kernel<T, kprim::Sum, ValueSource<T, T>, Policy>
                      <<<grid, Policy::block_size>>>(ValueSource<T, T>{Input<T>{x, 1}, true, 0}, n, kprim::Sum{}, partials,
                                                     ticket, result);
                check(cudaGetLastError(), "reduce_kernel");
              });
              check(cudaMemcpy(got.data(), result, sizeof(T), cudaMemcpyDeviceToHost), "copy back");
              if (!same(expected, got)) {
                std::fprintf(stderr, "kprim-reduce-tuning: %s %s n=%lld policy %s: result differs from CUB's\n",
                             primitive, type, static_cast<long long>(n), name_of<Policy>().c_str());
                std::exit(1);
              }
              row(name_of<Policy>(), us, cub_us);
            };
            (one(policies), ...);
          },
          Candidates{});
      check(cudaFree(cub_temp), "cudaFree");
    }
    for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(result),
                    static_cast<void*>(partials), static_cast<void*>(ticket)})
      check(cudaFree(p), "cudaFree");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  parse_options(argc, argv, "kprim-reduce-tuning",
                "kprim-reduce-tuning: the CUDA reduce/dot kernel under several block shapes against CUB DeviceReduce and a copy", options);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("# %s, sums into device memory, median of %d\nprimitive,type,n,candidate,time_us,gbps,vs_cub,vs_copy\n",
              properties.name, options.reps);
  const bool known = for_each_type(options.types, "kprim-reduce-tuning", [&]<class T>(const char* type) {
    run_type<T>(type, options.sizes(), options.reps, options.max_candidates, properties.multiProcessorCount);
  });
  return known ? 0 : 2;
}
