// Experiment (issue #25; not built by CMake): a warp-specialised scan of 4-byte Sum on Hopper,
// against kprim's lagged kernel (the library's, through launch_scan), CUB's DeviceScan and a copy,
// in one process. Persistent CTAs (BlocksPerSM a SM), each with
//   - a producer warp: lane 0 takes a ticket per tile and loads the tile with one 1-D TMA bulk copy
//     (cp.async.bulk) into a ring of Stages shared-memory stages (mbarrier full[s] / empty[s]);
//   - a look-ahead warp: keeps the CTA's running prefix; for the CTA's next tile t it sums the
//     aggregates of every tile from its previous tile up to t - 1 (32 * Batch tile words in flight
//     at once, empties re-read), so no tile waits for another tile's inclusive prefix and nothing
//     walks back: each CTA follows every tile's aggregate;
//   - a reduce warp: each tile's aggregate, published (flag AGGREGATE only) as soon as its data is
//     in, whatever the CTA's earlier tiles wait for;
//   - ComputeWarps compute warps: per stage, each warp scans its part of the tile in registers
//     (Rounds 16-byte vectors a lane, a warp scan of the lanes' totals per vector), the warps'
//     totals give each warp's offset; then they wait for the look-ahead's prefix, free the stage
//     and store from registers.
// The file's forms, one per call of 2026-11-28 late night (perf_tests/results/README.md, "A look-ahead
// scan with bulk copies"): call 1 without the reduce warp (the compute warps published the aggregate
// after their scan, so a CTA's later tiles stayed empty while its earlier ones waited for their
// prefix): 0.24-0.56 of the copy; call 2 with it; call 3 added the Inclusive (publish inclusive
// prefixes, stop at the nearest) and Backoff (__nanosleep between polls) candidates; call 4 (this
// file) EarlyRelease: stages freed once the data is in registers, the prefixes in a ring of their
// own. The library's kernel (impl/cuda/lookahead_scan.cuh) is Shape<8, 4, 4, 3, 8, false, 0, true>.
// Whole tiles only (n a multiple of the tile). Built like kprim-scan-tuning (nvcc_wrapper, the
// patched Kokkos 4.6.99's include path, sm_90), with this file in place of the tool's source.
// Output: type,n,candidate,time_us,gbps,vs_cub,vs_copy.
#include <kprim/impl/cuda/scan.cuh>

#include "../cuda_tuning_common.hpp"

#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

using namespace kprim_tuning;
using kprim::impl::cuda::Input;
using kprim::impl::cuda::Output;

namespace lookahead {

using kprim::impl::cuda::TileStates;
using kprim::impl::cuda::tile_aggregate;
using kprim::impl::cuda::tile_empty;
using kprim::impl::cuda::tile_inclusive;

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrier_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void barrier_arrive(unsigned long long* bar) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0];\n}" ::"r"(shared_address(bar))
               : "memory");
}
__device__ __forceinline__ void barrier_arrive_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barrier_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
}
__device__ __forceinline__ void bulk_load(void* shared, const void* global, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(shared)),
               "l"(global), "r"(bytes), "r"(shared_address(bar))
               : "memory");
}

template <int ComputeWarps, int Rounds, int Stages, int BlocksPerSM, int Batch = 8, bool Inclusive = false, int Backoff = 0,
          bool EarlyRelease = false>
struct Shape {
  static constexpr bool early_release = EarlyRelease;
  static constexpr int compute_warps = ComputeWarps, rounds = Rounds, stages = Stages, blocks_per_sm = BlocksPerSM,
                       batch = Batch, backoff = Backoff;
  static constexpr bool inclusive = Inclusive;
  static constexpr int threads = (ComputeWarps + 3) * 32;
  static constexpr long long tile = static_cast<long long>(ComputeWarps) * 32 * 4 * Rounds;  // 4-byte elements
  static constexpr int ring_bytes = int(tile * 4) * Stages;
  static std::string name() {
    return "lookahead/" + std::to_string(ComputeWarps) + "w/" + std::to_string(tile) + "/stages" + std::to_string(Stages) +
           "/min" + std::to_string(BlocksPerSM) + "/batch" + std::to_string(Batch) + (Inclusive ? "/inclusive" : "") +
           (Backoff ? "/backoff" + std::to_string(Backoff) : "") + (EarlyRelease ? "/early-release" : "");
  }
};

template <class T, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::blocks_per_sm)
    lookahead_scan(const T* in, T* out, long long tiles, TileStates<T> states, T* total) {
  static_assert(sizeof(T) == 4, "4-byte elements");
  constexpr int stages = Shape::stages, warps = Shape::compute_warps, rounds = Shape::rounds;
  constexpr long long tile_size = Shape::tile;
  extern __shared__ uint4 ring[];
  // With EarlyRelease the compute warps free a stage once its data is in their registers, and the
  // look-ahead frees it once it has read the tile index: the prefixes then take a ring of their own,
  // twice as deep (the look-ahead runs at most `stages` tiles ahead of the compute warps).
  constexpr int prefix_slots = Shape::early_release ? 2 * stages : stages;
  __shared__ unsigned long long full[stages], empty[stages], issued[stages], prefixed[prefix_slots];
  __shared__ long long tile_of[stages];
  __shared__ T prefix_of[prefix_slots];
  __shared__ T warp_totals[2][warps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      barrier_init(&full[s], 1);
      barrier_init(&empty[s], warps + 1 + (Shape::early_release ? 1 : 0));
      barrier_init(&issued[s], 1);
    }
    for (int s = 0; s < prefix_slots; ++s) barrier_init(&prefixed[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  if (warp == warps) {  // the producer
    if (lane != 0) return;
    for (long long k = 0;; ++k) {
      const int s = int(k % stages);
      const unsigned phase = unsigned(k / stages) & 1u;
      if (k >= stages) barrier_wait(&empty[s], phase ^ 1u);
      const long long t = atomicAdd(states.tickets, 1u);
      tile_of[s] = t < tiles ? t : -1;
      if (t < tiles) {
        barrier_arrive_expect(&full[s], unsigned(tile_size * sizeof(T)));
        bulk_load(ring + s * (tile_size / 4), in + t * tile_size, unsigned(tile_size * sizeof(T)), &full[s]);
      } else {
        barrier_arrive(&full[s]);
      }
      barrier_arrive(&issued[s]);
      if (t >= tiles) break;
    }
    __threadfence();  // every ticket of this CTA is taken before it counts itself out
    if (atomicAdd(states.tickets + 1, 1u) == gridDim.x - 1) {
      __threadfence();
      atomicExch(states.tickets, 0u);
      atomicExch(states.tickets + 1, 0u);
    }
    return;
  }

  if (warp == warps + 1) {  // the look-ahead: the sum of every tile before the CTA's next one
    T running = T(0);
    long long covered = 0;  // running = the sum of tiles [0, covered)
    for (long long k = 0;; ++k) {
      const int s = int(k % stages);
      const unsigned phase = unsigned(k / stages) & 1u;
      barrier_wait(&issued[s], phase);
      const long long t = tile_of[s];
      if (t < 0) break;
      if constexpr (Shape::early_release) {
        __syncwarp();
        if (lane == 0) barrier_arrive(&empty[s]);
      }
      const int ps = int(k % prefix_slots);
      T prefix;
      if constexpr (!Shape::inclusive) {
        T gap = T(0);
        for (long long base = covered; base < t; base += 32LL * Shape::batch) {
          T value[Shape::batch];
          unsigned status[Shape::batch];
#pragma unroll
          for (int j = 0; j < Shape::batch; ++j) {
            const long long index = base + j * 32 + lane;
            value[j] = T(0);
            status[j] = tile_aggregate;
            if (index < t) states.read(index, value[j], status[j]);
          }
          for (;;) {
            bool waiting = false;
#pragma unroll
            for (int j = 0; j < Shape::batch; ++j) waiting |= status[j] == tile_empty;
            if (!__any_sync(0xffffffffu, waiting)) break;
            if constexpr (Shape::backoff > 0) __nanosleep(Shape::backoff);
#pragma unroll
            for (int j = 0; j < Shape::batch; ++j)
              if (status[j] == tile_empty) states.read(base + j * 32 + lane, value[j], status[j]);
          }
#pragma unroll
          for (int j = 0; j < Shape::batch; ++j) gap += value[j];
        }
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) gap += __shfl_xor_sync(0xffffffffu, gap, offset);
        prefix = running + gap;
      } else {
        // Batches from t - 1 down to `covered`, all words of a batch in flight at once; the nearest
        // INCLUSIVE word ends the walk (the words before it need not be in), else the CTA's running sum does.
        T sum = T(0);
        bool resolved = false;
        for (long long high = t; high > covered && !resolved;) {
          const long long low = high - 32LL * Shape::batch > covered ? high - 32LL * Shape::batch : covered;
          T value[Shape::batch];
          unsigned status[Shape::batch];
#pragma unroll
          for (int j = 0; j < Shape::batch; ++j) {  // position j * 32 + lane is tile high - 1 - position
            const long long index = high - 1 - (j * 32 + lane);
            value[j] = T(0);
            status[j] = tile_aggregate;
            if (index >= low) states.read(index, value[j], status[j]);
          }
          int nearest = 32 * Shape::batch;  // the position of the nearest INCLUSIVE word, if any
          for (;;) {
            nearest = 32 * Shape::batch;
#pragma unroll
            for (int j = Shape::batch - 1; j >= 0; --j) {
              const unsigned lanes = __ballot_sync(0xffffffffu, status[j] == tile_inclusive);
              if (lanes) nearest = j * 32 + __ffs(int(lanes)) - 1;
            }
            bool waiting = false;
#pragma unroll
            for (int j = 0; j < Shape::batch; ++j) waiting |= status[j] == tile_empty && j * 32 + lane < nearest;
            if (!__any_sync(0xffffffffu, waiting)) break;
            if constexpr (Shape::backoff > 0) __nanosleep(Shape::backoff);
#pragma unroll
            for (int j = 0; j < Shape::batch; ++j)
              if (status[j] == tile_empty && j * 32 + lane < nearest)
                states.read(high - 1 - (j * 32 + lane), value[j], status[j]);
          }
          T part = T(0);
#pragma unroll
          for (int j = 0; j < Shape::batch; ++j)
            if (j * 32 + lane <= nearest) part += value[j];
#pragma unroll
          for (int offset = 16; offset > 0; offset /= 2) part += __shfl_xor_sync(0xffffffffu, part, offset);
          sum += part;
          resolved = nearest < 32 * Shape::batch;
          high = low;
        }
        prefix = resolved ? sum : running + sum;
      }
      if (lane == 0) {
        prefix_of[ps] = prefix;
        barrier_arrive(&prefixed[ps]);
      }
      if constexpr (Shape::inclusive) {
        // This tile's inclusive prefix, once the reduce warp has published its aggregate.
        T aggregate = T(0);
        unsigned status = tile_empty;
        if (lane == 0) {
          states.read(t, aggregate, status);
          while (status == tile_empty) states.read(t, aggregate, status);
          states.publish(t, prefix + aggregate, kprim::impl::cuda::tile_inclusive);
        }
        running = __shfl_sync(0xffffffffu, prefix + aggregate, 0);
        covered = t + 1;
      } else {
        running = prefix;
        covered = t;
      }
    }
    return;
  }

  if (warp == warps + 2) {  // the reduce warp: each tile's aggregate, published as soon as its data is in
    for (long long k = 0;; ++k) {
      const int s = int(k % stages);
      const unsigned phase = unsigned(k / stages) & 1u;
      barrier_wait(&full[s], phase);
      const long long t = tile_of[s];
      if (t < 0) break;
      const uint4* const vectors = ring + s * (tile_size / 4);
      T sum[4] = {T(0), T(0), T(0), T(0)};
#pragma unroll 4
      for (int i = lane; i < int(tile_size / 4); i += 32) {
        const uint4 q = vectors[i];
        T x[4];
        __builtin_memcpy(x, &q, 16);
#pragma unroll
        for (int e = 0; e < 4; ++e) sum[e] += x[e];
      }
      T aggregate = (sum[0] + sum[1]) + (sum[2] + sum[3]);
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) aggregate += __shfl_xor_sync(0xffffffffu, aggregate, offset);
      if (lane == 0) states.publish(t, aggregate, tile_aggregate);
      __syncwarp();
      if (lane == 0) barrier_arrive(&empty[s]);
    }
    return;
  }

  // The compute warps.
  for (long long k = 0;; ++k) {
    const int s = int(k % stages);
    const unsigned phase = unsigned(k / stages) & 1u;
    barrier_wait(&full[s], phase);
    const long long t = tile_of[s];
    if (t < 0) break;
    const uint4* const vectors = ring + s * (tile_size / 4) + warp * rounds * 32;
    T value[rounds][4];
    T carry = T(0);
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const uint4 q = vectors[r * 32 + lane];
      T x0, x1, x2, x3;
      __builtin_memcpy(&x0, &q.x, 4);
      __builtin_memcpy(&x1, &q.y, 4);
      __builtin_memcpy(&x2, &q.z, 4);
      __builtin_memcpy(&x3, &q.w, 4);
      x1 += x0;
      x2 += x1;
      x3 += x2;
      T inclusive = x3;
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2) {
        const T up = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += up;
      }
      const T before = carry + (inclusive - x3);
      value[r][0] = x0 + before;
      value[r][1] = x1 + before;
      value[r][2] = x2 + before;
      value[r][3] = x3 + before;
      carry += __shfl_sync(0xffffffffu, inclusive, 31);
    }
    if (lane == 0) warp_totals[k & 1][warp] = carry;
    asm volatile("bar.sync 1, %0;" ::"r"(warps * 32) : "memory");
    T warp_prefix = T(0), tile_total = T(0);
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      const T x = warp_totals[k & 1][w];
      if (w < warp) warp_prefix += x;
      tile_total += x;
    }
    if constexpr (Shape::early_release) {  // the data is in registers: the stage is free
      __syncwarp();
      if (lane == 0) barrier_arrive(&empty[s]);
    }
    const int ps = int(k % prefix_slots);
    barrier_wait(&prefixed[ps], unsigned(k / prefix_slots) & 1u);
    const T tile_prefix = prefix_of[ps];
    if constexpr (!Shape::early_release) {
      __syncwarp();
      if (lane == 0) barrier_arrive(&empty[s]);
    }
    const T add = tile_prefix + warp_prefix;
    uint4* const target = reinterpret_cast<uint4*>(out + t * tile_size) + warp * rounds * 32;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      uint4 q;
      const T y0 = value[r][0] + add, y1 = value[r][1] + add, y2 = value[r][2] + add, y3 = value[r][3] + add;
      __builtin_memcpy(&q.x, &y0, 4);
      __builtin_memcpy(&q.y, &y1, 4);
      __builtin_memcpy(&q.z, &y2, 4);
      __builtin_memcpy(&q.w, &y3, 4);
      target[r * 32 + lane] = q;
    }
    if (total != nullptr && t == tiles - 1 && warp == 0 && lane == 0) *total = tile_prefix + tile_total;
  }
}

}  // namespace lookahead

using Shapes = std::tuple<lookahead::Shape<8, 4, 4, 3>, lookahead::Shape<8, 4, 4, 3, 8, false, 0, true>,
                          lookahead::Shape<8, 4, 4, 3, 16, false, 0, true>, lookahead::Shape<8, 2, 8, 3, 8, false, 0, true>,
                          lookahead::Shape<4, 4, 8, 3, 8, false, 0, true>, lookahead::Shape<8, 4, 5, 2, 8, false, 0, true>>;

template <class T>
void run_type(const char* type, const std::vector<std::int64_t>& sizes, int reps, int sm_count) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (const std::int64_t n : sizes) {
    T *in = nullptr, *out = nullptr, *total = nullptr;
    check(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc in");
    check(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc out");
    check(cudaMalloc(&total, sizeof(T)), "cudaMalloc total");
    fill<<<1024, 256>>>(in, n);
    const double bytes = double(n) * 2 * sizeof(T);
    const auto row = [&](const std::string& candidate, double us, double cub_us, double copy_us) {
      std::printf("%s,%lld,%s,%.2f,%.1f,%.3f,%.3f\n", type, static_cast<long long>(n), candidate.c_str(), us,
                  bytes / us / 1e3, cub_us / us, copy_us / us);
    };
    const double copy_us = median_us(reps, start, stop, [&] {
      check(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
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
    const auto verify = [&](const std::string& name) {
      check(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
      bool ok = same(expected, got);
      if constexpr (std::is_integral_v<T>) ok = ok && expected == got;
      if (!ok) {
        std::fprintf(stderr, "lookahead-scan: %s n=%lld %s: result differs from CUB's\n", type, static_cast<long long>(n),
                     name.c_str());
        std::exit(1);
      }
    };
    {  // the library's kernel for long scans
      using Policy = kprim::impl::cuda::lagged_scan_policy<T>;
      const std::size_t temp_bytes = kprim::impl::cuda::scan_tile_state_for<T, Policy>(n).bytes;
      void* temp = nullptr;
      check(cudaMalloc(&temp, std::max<std::size_t>(temp_bytes, 16)), "cudaMalloc temp");
      check(cudaMemset(temp, 0, std::max<std::size_t>(temp_bytes, 16)), "cudaMemset temp");
      unsigned epoch = 0;
      const double us = median_us(reps, start, stop, [&] {
        const kprim::impl::TileState tiles{static_cast<unsigned char*>(temp), ++epoch};
        check(kprim::impl::cuda::launch_scan<T, kprim::Sum, Policy>(nullptr, Input<T>{in, 1}, Output<T>{out, 1}, n, false,
                                                                    T(0), kprim::Sum{}, total, tiles, sm_count),
              "launch_scan");
      });
      verify("kprim-lagged");
      row("kprim-lagged", us, cub_us, copy_us);
      check(cudaFree(temp), "cudaFree");
    }
    std::apply(
        [&](auto... shapes) {
          const auto one = [&](auto shape) {
            using Shape = decltype(shape);
            if (n % Shape::tile != 0) return;
            const long long tiles = n / Shape::tile;
            const std::size_t temp_bytes = kprim::impl::cuda::tile_state_need<T>(tiles).bytes;
            void* temp = nullptr;
            check(cudaMalloc(&temp, std::max<std::size_t>(temp_bytes, 16)), "cudaMalloc temp");
            check(cudaMemset(temp, 0, std::max<std::size_t>(temp_bytes, 16)), "cudaMemset temp");
            const auto kernel = lookahead::lookahead_scan<T, Shape>;
            check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::ring_bytes), "attribute");
            unsigned epoch = 0;
            const double us = median_us(reps, start, stop, [&] {
              const kprim::impl::TileState state{static_cast<unsigned char*>(temp), ++epoch};
              kernel<<<sm_count * Shape::blocks_per_sm, Shape::threads, Shape::ring_bytes>>>(
                  in, out, tiles, kprim::impl::cuda::TileStates<T>(state, tiles), total);
              check(cudaGetLastError(), "launch");
            });
            check(cudaDeviceSynchronize(), "lookahead kernel");
            verify(Shape::name());
            row(Shape::name(), us, cub_us, copy_us);
            check(cudaFree(temp), "cudaFree");
          };
          (one(shapes), ...);
        },
        Shapes{});
    check(cudaFree(cub_temp), "cudaFree");
    check(cudaFree(in), "cudaFree");
    check(cudaFree(out), "cudaFree");
    check(cudaFree(total), "cudaFree");
  }
}

int main(int argc, char** argv) {
  Options options;
  parse_options(argc, argv, "lookahead-scan", "lookahead-scan: a TMA ring + look-ahead scan against kprim's, CUB's and a copy",
                options);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("# %s, inclusive sum, median of %d\ntype,n,candidate,time_us,gbps,vs_cub,vs_copy\n", properties.name,
              options.reps);
  for (const std::string& type : options.types) {
    if (type == "float") run_type<float>("float", options.sizes(), options.reps, properties.multiProcessorCount);
    if (type == "int32") run_type<int>("int32", options.sizes(), options.reps, properties.multiProcessorCount);
  }
}
