// kprim-select-tuning: times the hand-written CUDA compaction kernel (select_kernel, behind
// kprim::copy_if and kprim::copy_index_if on CUDA) under several tuning policies against CUB's
// DeviceSelect::If and a device copy, in one process, on raw device memory. It is how
// default_select_policy in include/kprim/impl/cuda/select.cuh was chosen; rerun it on a new
// architecture before changing it.
//
// Input: n values of the type, a hash of i deciding which are kept (--percent of them, default
// 50, scattered). Every policy's count and output are checked against CUB's; a mismatch aborts.
// Output: one CSV row per (type, n, candidate):
//   type,n,candidate,time_us,gbps,vs_cub,vs_copy
// GB/s counts the ideal traffic (n reads + the kept writes); vs_copy compares with a copy of n
// elements. Median of --reps timed calls after two warm-up calls; the kernel's memset of its tile
// states is inside the timing, CUB's temporary-storage allocation is not.
//
// Usage: kprim-select-tuning [--reps=N] [--log2=20,24,26,28] [--sizes=N,...] [--types=float,double,int32,int64]
//                            [--candidates=K]   (only the first K policies: 1 = today's default)

#include <kprim/impl/cuda/select.cuh>

#include "cuda_tuning_common.hpp"

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace kprim_tuning;
using kprim::impl::cuda::SelectPolicy;

// Candidates: the default for 4-byte payloads first, then the one for 8-byte payloads, then the
// runners-up of the 2026-11-24 sweeps. SelectPolicy<threads, items, min blocks per SM, staged>.
using Candidates = std::tuple<SelectPolicy<128, 32, 8>, SelectPolicy<256, 24, 4, false>, SelectPolicy<128, 24, 10>,
                              SelectPolicy<128, 32, 6>, SelectPolicy<192, 24, 5>, SelectPolicy<256, 24, 3, false>>;

template <class Policy>
std::string name_of() {
  return std::to_string(Policy::block_size) + "x" + std::to_string(Policy::items) + "/min" +
         std::to_string(Policy::min_blocks_per_sm) + (Policy::staged ? "/staged" : "/direct");
}

/// Keeps the values above zero.
struct Positive {
  template <class T>
  __host__ __device__ bool operator()(const T& v) const {
    return v > T(0);
  }
};

/// kprim's selection interface over raw pointers (as kprim::copy_if's SelectElements over Views).
template <class T>
struct RawSelect {
  const T* in;
  T* out;
  std::int64_t room;
  __device__ T load(std::int64_t i) const { return in[i]; }
  __device__ bool selected(const T& v) const { return Positive{}(v); }
  __device__ T value(std::int64_t, const T& v) const { return v; }
  __device__ void store(std::int64_t position, const T& v) const { out[position] = v; }
};

/// x(i) = 1 + i % 7 for the kept ones, -1 for the others; the hash keeps `percent` % of them.
template <class T>
__global__ void fill_signs(T* data, std::int64_t n, int percent) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] = ((std::uint64_t(i) * 0x9E3779B97F4A7C15ull) >> 40) % 100 < std::uint64_t(percent) ? T(1 + i % 7) : T(-1);
}

template <class T>
void run_type(const char* type, const std::vector<std::int64_t>& sizes, int reps, int max_candidates, int percent) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (const std::int64_t n : sizes) {
    T *in = nullptr, *out = nullptr;
    std::int64_t* count = nullptr;
    check(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc in");
    check(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc out");
    check(cudaMalloc(&count, sizeof(std::int64_t)), "cudaMalloc count");
    fill_signs<<<1024, 256>>>(in, n, percent);

    const double copy_us = median_us(reps, start, stop, [&] {
      check(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    });
    std::size_t cub_bytes = 0;
    check(cub::DeviceSelect::If(nullptr, cub_bytes, in, out, count, n, Positive{}), "cub temp size");
    void* cub_temp = nullptr;
    check(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    const double cub_us = median_us(
        reps, start, stop, [&] { check(cub::DeviceSelect::If(cub_temp, cub_bytes, in, out, count, n, Positive{}), "cub"); });
    std::int64_t expected_count = 0, got_count = 0;
    check(cudaMemcpy(&expected_count, count, sizeof expected_count, cudaMemcpyDeviceToHost), "copy back");
    std::vector<T> expected(expected_count), got(expected_count);
    check(cudaMemcpy(expected.data(), out, expected_count * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
    const double bytes = double(n + expected_count) * sizeof(T);
    auto row = [&](const std::string& candidate, double us) {
      std::printf("%s,%lld,%s,%.2f,%.1f,%.3f,%.3f\n", type, static_cast<long long>(n), candidate.c_str(), us,
                  bytes / us / 1e3, cub_us / us, copy_us / us);
    };
    row("copy", copy_us);
    row("cub", cub_us);

    std::apply(
        [&](auto... policies) {
          int index = 0;
          auto one = [&](auto policy) {
            using Policy = decltype(policy);
            if (index++ >= max_candidates) return;
            // Zeroed once; each launch's flags carry a new epoch, as the library's calls do.
            const std::size_t temp_bytes = std::max<std::size_t>(16, kprim::impl::cuda::select_tile_state_for<Policy>(n).bytes);
            void* temp = nullptr;
            check(cudaMalloc(&temp, temp_bytes), "cudaMalloc temp");
            check(cudaMemset(temp, 0, temp_bytes), "cudaMemset temp");
            check(cudaMemset(out, 0, n * sizeof(T)), "cudaMemset");
            unsigned epoch = 0;
            const double us = median_us(reps, start, stop, [&] {
              const kprim::impl::TileState tiles{static_cast<unsigned char*>(temp), ++epoch};
              check(kprim::impl::cuda::launch_select<Policy>(nullptr, RawSelect<T>{in, out, n}, n, count, tiles),
                    "launch_select");
            });
            check(cudaMemcpy(&got_count, count, sizeof got_count, cudaMemcpyDeviceToHost), "copy back");
            check(cudaMemcpy(got.data(), out, expected_count * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
            if (got_count != expected_count || got != expected) {
              std::fprintf(stderr, "kprim-select-tuning: %s n=%lld policy %s: count %lld (CUB %lld) or output differs\n",
                           type, static_cast<long long>(n), name_of<Policy>().c_str(), static_cast<long long>(got_count),
                           static_cast<long long>(expected_count));
              std::exit(1);
            }
            check(cudaFree(temp), "cudaFree");
            row(name_of<Policy>(), us);
          };
          (one(policies), ...);
        },
        Candidates{});
    check(cudaFree(cub_temp), "cudaFree");
    check(cudaFree(in), "cudaFree");
    check(cudaFree(out), "cudaFree");
    check(cudaFree(count), "cudaFree");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  options.types = {"float", "int64"};
  int percent = 50;
  parse_options(argc, argv, "kprim-select-tuning",
                "kprim-select-tuning: the CUDA compaction kernel (copy_if) under several tile shapes against CUB "
                "DeviceSelect::If and a copy",
                options, [&](kprim_perf::Arguments& args) {
                  args.option("percent", "P", "percent of the elements kept (default 50)",
                              [&](const std::string& v) { percent = kprim_perf::positive_int(v, "--percent"); });
                });
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("# %s, select values > 0 (%d%% kept), median of %d\ntype,n,candidate,time_us,gbps,vs_cub,vs_copy\n",
              properties.name, percent, options.reps);
  const bool known = for_each_type(options.types, "kprim-select-tuning", [&]<class T>(const char* type) {
    run_type<T>(type, options.sizes(), options.reps, options.max_candidates, percent);
  });
  return known ? 0 : 2;
}
