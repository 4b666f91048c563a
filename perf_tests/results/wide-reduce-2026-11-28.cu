// Experiment (issue #25's "a wider accumulator" row; not built by CMake): the CUDA reduce kernel
// summing floats in double accumulators (ValueSource<float, double>, as kprim::reduce<double> of a
// float View) under several ReducePolicy shapes, against CUB's DeviceReduce::Reduce of the same
// float array with plus<double> (as kprim-bench's app:reduce_f32_f64 peer) and a float sum in
// floats. Built like kprim-scan-tuning (nvcc_wrapper, the patched Kokkos 4.6.99's include path),
// with this file in place of the tool's source. Output: type,n,candidate,time_us,gbps,vs_cub.
// Call 13 ran a second form: the candidates 512x4/v4, 256x8/v4, 512x4/v8 and the types
// float_to_double, float, double, int32_to_int64 (int into long long), built against main's
// reduce.cuh and against the one with __launch_bounds__(block_size, blocks_per_sm).
#include <kprim/impl/cuda/reduce.cuh>

#include "../cuda_tuning_common.hpp"

#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <tuple>

using namespace kprim_tuning;
using kprim::impl::cuda::Input;
using kprim::impl::cuda::ReducePolicy;
using kprim::impl::cuda::ValueSource;

using Candidates = std::tuple<ReducePolicy<512, 4, 4>, ReducePolicy<512, 4, 8>, ReducePolicy<256, 8, 4>, ReducePolicy<256, 8, 8>,
                              ReducePolicy<1024, 2, 4>, ReducePolicy<256, 4, 16>, ReducePolicy<512, 2, 8>, ReducePolicy<128, 16, 8>>;

template <class In, class T>
void run(const char* type, std::int64_t n, int reps, int sm_count) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  In* x = nullptr;
  T *result = nullptr, *partials = nullptr;
  unsigned* ticket = nullptr;
  check(cudaMalloc(&x, n * sizeof(In)), "malloc");
  check(cudaMalloc(&result, sizeof(T)), "malloc");
  check(cudaMalloc(&partials, 1 << 20), "malloc");
  check(cudaMalloc(&ticket, sizeof(unsigned)), "malloc");
  check(cudaMemset(ticket, 0, sizeof(unsigned)), "memset");
  fill<<<1024, 256>>>(x, n);
  std::size_t bytes = 0;
  check(cub::DeviceReduce::Reduce(nullptr, bytes, x, result, n, cuda::std::plus<T>{}, T(0)), "cub size");
  void* temp = nullptr;
  check(cudaMalloc(&temp, bytes), "malloc");
  const double cub_us =
      median_us(reps, start, stop, [&] { check(cub::DeviceReduce::Reduce(temp, bytes, x, result, n, cuda::std::plus<T>{}, T(0)), "cub"); });
  T expected, got;
  check(cudaMemcpy(&expected, result, sizeof(T), cudaMemcpyDeviceToHost), "copy");
  const double gb = double(n) * sizeof(In);
  std::printf("%s,%lld,cub,%.2f,%.1f,1.000\n", type, static_cast<long long>(n), cub_us, gb / cub_us / 1e3);
  std::apply(
      [&](auto... policies) {
        auto one = [&](auto policy) {
          using Policy = decltype(policy);
          const int grid = kprim::impl::cuda::reduce_grid_size<Policy>(sm_count, n, sizeof(In));
          const double us = median_us(reps, start, stop, [&] {
            kprim::impl::cuda::reduce_kernel<T, kprim::Sum, ValueSource<In, T>, Policy><<<grid, Policy::block_size>>>(
                ValueSource<In, T>{Input<In>{x, 1}, true, 0}, n, kprim::Sum{}, partials, ticket, result);
          });
          check(cudaMemcpy(&got, result, sizeof(T), cudaMemcpyDeviceToHost), "copy");
          if (got != expected && std::abs(double(got) - double(expected)) > 1e-6 * std::abs(double(expected)))
            std::fprintf(stderr, "mismatch %s %s\n", type, std::to_string(Policy::block_size).c_str());
          std::printf("%s,%lld,%dx%d/v%d,%.2f,%.1f,%.3f\n", type, static_cast<long long>(n), Policy::block_size,
                      Policy::blocks_per_sm, Policy::vectors_in_flight, us, gb / us / 1e3, cub_us / us);
        };
        (one(policies), ...);
      },
      Candidates{});
  for (void* p : {static_cast<void*>(x), static_cast<void*>(result), static_cast<void*>(partials), static_cast<void*>(ticket), temp})
    check(cudaFree(p), "free");
}

int main() {
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "props");
  std::printf("# %s, sum, median of 20\ntype,n,candidate,time_us,gbps,vs_cub\n", properties.name);
  for (const std::int64_t n : {std::int64_t(1) << 24, std::int64_t(1) << 26, std::int64_t(1) << 28}) {
    run<float, double>("float_to_double", n, 20, properties.multiProcessorCount);
    run<float, float>("float", n, 20, properties.multiProcessorCount);
  }
}
