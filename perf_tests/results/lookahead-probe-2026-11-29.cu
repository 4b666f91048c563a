// Experiment (issue #25; not built by CMake): where the look-ahead scan's warps wait. Built against a copy
// of impl/cuda/lookahead_scan.cuh instrumented by lookahead-probe-2026-11-29.py (per-block counters of
// clock64 cycles each role waits, globaltimer at a block's start and end), placed first on the include path:
//   python3 lookahead-probe-2026-11-29.py <lookahead_scan.cuh> probe/kprim/impl/cuda/lookahead_scan.cuh
//   nvcc_wrapper -std=c++20 -O3 -Iprobe -I<kprim>/include -I<build>/include -I<kokkos>/include \
//     lookahead-probe-2026-11-29.cu -o probe -L<kokkos>/lib -lkokkoscore -ldl
// Output and the forms measured: NVIDIA-H200-2026-11-29-lookahead-probe.txt; perf_tests/results/README.md,
// "Bulk stores for the look-ahead scan".
// Probe (not kept): where the look-ahead scan's roles wait, per block, float / int32 sums.
#include <kprim/impl/cuda/lookahead_scan.cuh>
#include <kprim/ops.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
namespace kc = kprim::impl::cuda;
#define CK(...) do { cudaError_t e = (__VA_ARGS__); if (e != cudaSuccess) { std::printf("%s: %s\n", #__VA_ARGS__, cudaGetErrorString(e)); return 1; } } while (0)
__global__ void fill(float* x, long n) { for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) x[i] = float(i % 7); }
int main(int argc, char** argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int log2 : {24, 26, 28}) {
    const long n = 1L << log2;
    using Shape = kc::LookaheadShape<float>;
    const long tiles = (n + Shape::tile_size - 1) / Shape::tile_size;
    float *in, *out, *total; CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&total, 16));
    fill<<<1024, 256>>>(in, n);
    const auto need = kc::scan_tile_state_for<float, Shape>(n);
    unsigned char* tstate; CK(cudaMalloc(&tstate, need.bytes + 16)); CK(cudaMemset(tstate, 0, need.bytes + 16));
    const int grid = int(std::min<long>(tiles, long(sms) * Shape::blocks_per_sm));
    unsigned long long* probe; CK(cudaMalloc(&probe, grid * 16 * 8));
    CK(cudaMemcpyToSymbol(kc::lookahead::g_probe, &probe, sizeof(probe)));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    unsigned epoch = 0;
    std::vector<float> times;
    for (int rep = 0; rep < 11; ++rep) {
      CK(cudaMemset(probe, 0, grid * 16 * 8));
      float ms;
      cudaEventRecord(e0);
      CK(kc::launch_lookahead_scan<float, kprim::Sum>(nullptr, 0, in, out, n, false, 0.0f, kprim::Sum{}, total, kprim::impl::TileState{tstate, ++epoch}, sms));
      cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); cudaEventElapsedTime(&ms, e0, e1); times.push_back(ms * 1e3f);
      cudaEventRecord(e0); CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
      cudaEventElapsedTime(&ms, e0, e1); if (rep == 10) std::printf("n=2^%d copy %.1f us\n", log2, ms * 1e3);
    }
    std::sort(times.begin(), times.end());
    std::printf("n=2^%d scan (instrumented) median %.1f us, grid %d, tiles %ld\n", log2, times[5], grid, tiles);
    std::vector<unsigned long long> h(grid * 16);
    CK(cudaMemcpy(h.data(), probe, h.size() * 8, cudaMemcpyDeviceToHost));  // the last rep's
    const char* names[] = {"compute w0 wait prefix", "compute w0 wait full", "producer wait empty", "reduce wait full",
                           "lookahead poll loop", "lookahead busy (issued->prefix)", "lookahead wait issued", "tiles (w0)",
                           "", "poll iterations", "gap tiles"};
    double tiles_sum = 0; for (int b = 0; b < grid; ++b) tiles_sum += h[b * 16 + 7];
    for (int c : {0, 1, 2, 3, 4, 5, 6, 9, 10}) {
      double sum = 0; for (int b = 0; b < grid; ++b) sum += h[b * 16 + c];
      std::printf("  %-34s per tile %10.1f\n", names[c], sum / tiles_sum);
    }
    unsigned long long s0 = ~0ull, s1 = 0, e_min = ~0ull, e_max = 0; std::vector<double> ends;
    for (int b = 0; b < grid; ++b) { s0 = std::min(s0, h[b*16+8]); s1 = std::max(s1, h[b*16+8]); e_min = std::min(e_min, h[b*16+11]); e_max = std::max(e_max, h[b*16+11]); }
    for (int b = 0; b < grid; ++b) ends.push_back((h[b*16+11] - s0) * 1e-3);
    std::sort(ends.begin(), ends.end());
    std::printf("  block starts spread %.2f us; ends (us after first start): min %.2f p10 %.2f median %.2f p90 %.2f max %.2f\n",
                (s1 - s0) * 1e-3, ends[0], ends[grid / 10], ends[grid / 2], ends[grid * 9 / 10], ends.back());
    {  // exactness: unsigned sums (wrapping), inclusive and exclusive, n and n - 3, against the host
      unsigned* u = reinterpret_cast<unsigned*>(in); unsigned* v = reinterpret_cast<unsigned*>(out);
      std::vector<unsigned> h_in(n), h_out(n);
      for (long i = 0; i < n; ++i) h_in[i] = unsigned(i * 2654435761u) >> 7;
      CK(cudaMemcpy(u, h_in.data(), n * 4, cudaMemcpyHostToDevice));
      for (int excl = 0; excl < 2; ++excl) for (long m : {n, n - 3}) {
        CK(cudaMemset(v, 0xff, n * 4));
        CK(kc::launch_lookahead_scan<unsigned, kprim::Sum>(nullptr, 0, u, v, m, excl == 1, 5u, kprim::Sum{}, reinterpret_cast<unsigned*>(total), kprim::impl::TileState{tstate, ++epoch}, sms));
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h_out.data(), v, n * 4, cudaMemcpyDeviceToHost));
        unsigned acc = 5u; long bad = 0;
        for (long i = 0; i < m; ++i) { if (excl) { if (h_out[i] != acc) ++bad; acc += h_in[i]; } else { acc += h_in[i]; if (h_out[i] != acc) ++bad; } }
        for (long i = m; i < n; ++i) if (h_out[i] != 0xffffffffu) ++bad;
        unsigned tot; CK(cudaMemcpy(&tot, total, 4, cudaMemcpyDeviceToHost));
        std::printf("  check %s m=%ld: %ld mismatches, total %s\n", excl ? "exclusive" : "inclusive", m, bad, tot == acc ? "ok" : "WRONG");
      }
    }
    cudaFree(in); cudaFree(out); cudaFree(total); cudaFree(tstate); cudaFree(probe);
  }
  return 0;
}
