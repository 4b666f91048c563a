// kprim-scan-tuning: times the hand-written CUDA scan kernel under several tuning policies
// (block size, items per thread, register cap, runs in shared memory, fold chains, early
// rescan) against CUB's DeviceScan and a device copy, in one process, on raw device memory. It is how the defaults in
// include/kprim/impl/cuda/scan.cuh were chosen; rerun it on a new architecture before changing them.
//
// Every policy's output is checked against CUB's (exactly for integers, to a relative 1e-5 on the
// last element for floating point); a mismatch aborts. Two probe rows (probe:staged-copy,
// probe:staged-local-scan: the default's tile work without the look-back, results not scans) show
// what the look-back costs (for the short-scan kernel). Output: one CSV row per (type, n, candidate):
//   type,n,candidate,time_us,gbps,vs_cub,vs_copy
// GB/s counts the ideal traffic of a scan (n reads + n writes). `int32_to_int64` scans int32 counts
// into int64 sums (the CRS-offsets call; CUB's InclusiveSum of the same arrays): its GB/s counts
// 4n + 8n bytes and its copy row copies the n counts, so its vs_copy is against a smaller copy.
// Median of --reps timed calls after
// two warm-up calls; the scan's own memset of its tile states is inside the timing, CUB's
// temporary-storage allocation is not.
//
// Usage: kprim-scan-tuning [--reps=N] [--log2=20,24,26,28] [--sizes=N,...] [--types=float,double,int32,int64,int32_to_int64]
//                          [--candidates=K]   (only the first K policies: 1 = today's default)

#include <kprim/impl/cuda/scan.cuh>

#include "cuda_tuning_common.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace kprim_tuning;
using kprim::impl::cuda::Input;
using kprim::impl::cuda::Output;
using kprim::impl::cuda::ScanPolicy;

// Candidates: today's default for short scans first (shared-memory runs folded and rescanned as
// 2 chains, the rescan before the look-back: 128 x 64 / 6 for 4-byte types, 128 x 32 / 6 for
// 8-byte ones), then the same shape without chains or early rescan (the default until 2026-11-23
// night), then the lagged kernel (persistent blocks holding two tiles, the default for long
// scans: 128 x 32 / 6 and 128 x 16 / 6) and the lagged shapes it was chosen from (2026-11-26). The runs
// held in registers (256 x 32; 224 x 24, CUB's sm90 shape) lost and left the kernel; they, the
// earlier sweeps' candidates and the look-back experiments of 2026-11-26 (wider windows, larger
// tiles, a look-back warp, poll back-off, persistent blocks; none reached the copy) are in
// perf_tests/results (CSVs and README.md, "Scan at copy speed").
// The last candidates fetch a round ahead (2026-11-28 afternoon); the 8-byte default since
// 2026-11-28 night folds runs as one chain (the last 8-byte candidate).
// ScanPolicy<threads, items, min blocks per SM, chains, rescan before look-back, lagged, fetch ahead>.
using Candidates4 = std::tuple<ScanPolicy<128, 64, 6>, ScanPolicy<128, 64, 6, 1, false>, ScanPolicy<128, 32, 6, 2, true, true>,
                               ScanPolicy<128, 64, 3, 2, true, true>, ScanPolicy<256, 32, 3, 2, true, true>,
                               ScanPolicy<128, 16, 8, 2, true, true>, ScanPolicy<64, 64, 6, 2, true, true>,
                               ScanPolicy<128, 32, 6, 2, true, true, true>, ScanPolicy<128, 32, 5, 2, true, true, true>,
                               ScanPolicy<128, 16, 8, 2, true, true, true>, ScanPolicy<256, 16, 4, 2, true, true, true>>;
using Candidates8 = std::tuple<ScanPolicy<128, 32, 6>, ScanPolicy<128, 32, 6, 1, false>, ScanPolicy<128, 16, 6, 2, true, true>,
                               ScanPolicy<128, 32, 3, 2, true, true>, ScanPolicy<256, 16, 3, 2, true, true>,
                               ScanPolicy<128, 16, 6, 2, true, true, true>, ScanPolicy<128, 16, 5, 2, true, true, true>,
                               ScanPolicy<128, 8, 8, 2, true, true, true>, ScanPolicy<128, 16, 5, 1, true, true, true>>;

// Probes of the kernel's structure at the default shape (not scans): a tile staged through shared
// memory and stored back (the copy this structure allows), and the same with the fold, block scan
// and rescan but no look-back (the tile-local work).
template <class T, class Policy, bool LocalScan>
__global__ void __launch_bounds__(Policy::block_size, Policy::min_blocks_per_sm)
    staged_probe(const T* in, T* out) {
  using namespace kprim::impl::cuda;
  using runs = WarpRuns<T, Policy::items>;
  __shared__ BlockStorage<T, Policy::block_size> storage;
  __shared__ Slots<T, (Policy::block_size / warp_size) * runs::elements> exchange_storage;
  const int lane = lane_id();
  T* const exchange = exchange_storage.data() + (threadIdx.x / warp_size) * runs::elements;
  const std::int64_t warp_first =
      std::int64_t(blockIdx.x) * Policy::tile_size + std::int64_t(threadIdx.x / warp_size) * warp_size * Policy::items;
  runs::stage(in + warp_first, exchange, lane);
  if constexpr (LocalScan) {
    T sub_totals[Policy::chains];
    const kprim::Sum op;
    runs::fold(exchange, lane, op, sub_totals);
    T total = sub_totals[0];
    for (int c = 1; c < Policy::chains; ++c) total += sub_totals[c];
    T aggregate;
    const T prefix = block_exclusive_scan<Policy::block_size>(total, op, T(0), aggregate, storage);
    runs::scan_in_place(exchange, lane, prefix, false, op, sub_totals);
  }
  runs::unstage(out + warp_first, exchange, lane);
}

template <class Policy>
std::string name_of() {
  return std::to_string(Policy::block_size) + "x" + std::to_string(Policy::items) + "/min" +
         std::to_string(Policy::min_blocks_per_sm) + "/shared" +
         (Policy::chains > 1 ? "/chains" + std::to_string(Policy::chains) : "") +
         (Policy::scan_before_look_back ? "/early" : "") + (Policy::lagged ? "/lagged" : "") + (Policy::fetch_ahead ? "/ahead" : "");
}

/// Times the candidates on an inclusive sum of In into T (In = T, or int32 counts into int64
/// offsets, the CRS call) against CUB's InclusiveSum of the same arrays and a copy of the input.
template <class T, class In = T>
void run_type(const char* type, const std::vector<std::int64_t>& sizes, int reps, int max_candidates, int sm_count) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (const std::int64_t n : sizes) {
    In* in = nullptr;
    T *out = nullptr, *total = nullptr;
    check(cudaMalloc(&in, n * sizeof(In)), "cudaMalloc in");
    check(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc out");
    check(cudaMalloc(&total, sizeof(T)), "cudaMalloc total");
    fill<<<1024, 256>>>(in, n);
    const double bytes = double(n) * double(sizeof(In) + sizeof(T));
    auto row = [&](const std::string& candidate, double us, double cub_us, double copy_us) {
      std::printf("%s,%lld,%s,%.2f,%.1f,%.3f,%.3f\n", type, static_cast<long long>(n), candidate.c_str(), us,
                  bytes / us / 1e3, cub_us / us, copy_us / us);
    };

    const double copy_us = median_us(reps, start, stop, [&] {
      check(cudaMemcpyAsync(out, in, n * sizeof(In), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    });
    std::size_t cub_bytes = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, n), "cub temp size");
    void* cub_temp = nullptr;
    check(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    const double cub_us =
        median_us(reps, start, stop, [&] { check(cub::DeviceScan::InclusiveSum(cub_temp, cub_bytes, in, out, n), "cub"); });
    std::vector<T> expected(n), got(n);
    check(cudaMemcpy(expected.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
    row("copy", copy_us, cub_us, copy_us);
    row("cub", cub_us, cub_us, copy_us);
    if constexpr (std::is_same_v<In, T>) {
      using Default = std::tuple_element_t<0, std::conditional_t<sizeof(T) == 4, Candidates4, Candidates8>>;
      const unsigned blocks = unsigned(n / Default::tile_size);
      if (blocks > 0 && n % Default::tile_size == 0) {  // whole tiles only
      row("probe:staged-copy", median_us(reps, start, stop, [&] { staged_probe<T, Default, false><<<blocks, Default::block_size>>>(in, out); }),
          cub_us, copy_us);
      row("probe:staged-local-scan",
          median_us(reps, start, stop, [&] { staged_probe<T, Default, true><<<blocks, Default::block_size>>>(in, out); }), cub_us,
          copy_us);
      }
    }

    using Candidates = std::conditional_t<sizeof(T) == 4, Candidates4, Candidates8>;
    std::apply(
        [&](auto... policies) {
          int index = 0;
          auto one = [&](auto policy) {
            using Policy = decltype(policy);
            if (index++ >= max_candidates) return;
            // Zeroed once; each launch's flags carry a new epoch, as the library's calls do.
            const std::size_t temp_bytes = kprim::impl::cuda::scan_tile_state_for<T, Policy>(n).bytes;
            void* temp = nullptr;
            check(cudaMalloc(&temp, std::max<std::size_t>(temp_bytes, 16)), "cudaMalloc temp");
            check(cudaMemset(temp, 0, std::max<std::size_t>(temp_bytes, 16)), "cudaMemset temp");
            unsigned epoch = 0;
            const double us = median_us(reps, start, stop, [&] {
              const kprim::impl::TileState tiles{static_cast<unsigned char*>(temp), ++epoch};
              check(kprim::impl::cuda::launch_scan<T, kprim::Sum, Policy>(nullptr, Input<In>{in, 1}, Output<T>{out, 1}, n,
                                                                          false, T(0), kprim::Sum{}, total, tiles, sm_count),
                    "launch_scan");
            });
            check(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
            if (!same(expected, got)) {
              std::fprintf(stderr, "kprim-scan-tuning: %s n=%lld policy %s: result differs from CUB's\n", type,
                           static_cast<long long>(n), name_of<Policy>().c_str());
              std::exit(1);
            }
            check(cudaFree(temp), "cudaFree");
            row(name_of<Policy>(), us, cub_us, copy_us);
          };
          (one(policies), ...);
        },
        Candidates{});
    check(cudaFree(cub_temp), "cudaFree");
    check(cudaFree(in), "cudaFree");
    check(cudaFree(out), "cudaFree");
    check(cudaFree(total), "cudaFree");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  parse_options(argc, argv, "kprim-scan-tuning",
                "kprim-scan-tuning: the CUDA scan kernel under several tile shapes against CUB DeviceScan and a copy (inclusive sum)", options);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("# %s, inclusive sum, median of %d\ntype,n,candidate,time_us,gbps,vs_cub,vs_copy\n", properties.name,
              options.reps);
  for (const std::string& type : options.types) {
    if (type == "int32_to_int64") {  // the CRS call: int32 counts into int64 sums
      run_type<std::int64_t, std::int32_t>("int32_to_int64", options.sizes(), options.reps, options.max_candidates,
                                           properties.multiProcessorCount);
    } else if (!for_each_type({type}, "kprim-scan-tuning", [&]<class T>(const char* name) {
                 run_type<T>(name, options.sizes(), options.reps, options.max_candidates, properties.multiProcessorCount);
               })) {
      return 2;
    }
  }
  return 0;
}
