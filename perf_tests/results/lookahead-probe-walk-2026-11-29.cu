// Experiment (issue #25; not built by CMake): the look-ahead scan's forms of 2026-11-29's third session,
// timed (float Sum at 2^24 / 2^26 / 2^28, double Sum at 2^23 / 2^25 / 2^27, median of 11 launches) and
// checked (unsigned sums; affine maps composed in order, 4 and 8 bytes; inclusive, exclusive, n and n - 3).
// Built against an instrumented copy of a form's lookahead_scan.cuh (lookahead-probe-2026-11-29.py, or
// lookahead-probe-walk-2026-11-29.py for forms that walk back) and the form's scan.cuh, first on the path:
//   python3 lookahead-probe-walk-2026-11-29.py <lookahead_scan.cuh> form/kprim/impl/cuda/lookahead_scan.cuh
//   nvcc_wrapper -std=c++20 -O3 -Iform -I<kprim>/include -I<build>/include -I<kokkos>/include \
//     lookahead-probe-walk-2026-11-29.cu -o probe -L<kokkos>/lib -lkokkoscore -ldl
// Output and forms: NVIDIA-H200-2026-11-29-walk-back-probe.txt; perf_tests/results/README.md, "The
// look-ahead walks back; tile words by atomic exchange".
// Probe (not kept): where the look-ahead scan's roles wait, per block, float / int32 sums.
#include <kprim/impl/cuda/lookahead_scan.cuh>
#include <kprim/ops.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
namespace kc = kprim::impl::cuda;
#define CK(...) do { cudaError_t e = (__VA_ARGS__); if (e != cudaSuccess) { std::printf("%s: %s\n", #__VA_ARGS__, cudaGetErrorString(e)); return 1; } } while (0)
__global__ void fill(float* x, long n) { for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) x[i] = float(i % 7); }

// A non-commutative op: composition of affine maps x -> a x + b modulo 2^bits (exact, order-sensitive).
template <class U> struct Affine { U a, b; };
struct Compose {
  template <class U> __host__ __device__ Affine<U> operator()(const Affine<U>& l, const Affine<U>& r) const {
    return {U(l.a * r.a), U(l.b * r.a + r.b)};
  }
  template <class T> __host__ __device__ T identity() const { return T{1, 0}; }
};
template <class U>
int check_ordered(long n, int sms, unsigned char* tstate, unsigned& epoch) {
  using T = Affine<U>;
  T *in, *out, *total; CK(cudaMalloc(&in, n * sizeof(T))); CK(cudaMalloc(&out, n * sizeof(T))); CK(cudaMalloc(&total, 16));
  std::vector<T> h_in(n), h_out(n);
  for (long i = 0; i < n; ++i) h_in[i] = T{U((i * 2654435761u >> 9) | 1u), U(i * 40503u + 7u)};
  CK(cudaMemcpy(in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  for (int excl = 0; excl < 2; ++excl) for (long m : {n, n - 3}) {
    CK(cudaMemset(out, 0xff, n * sizeof(T)));
    const T seed{U(3), U(5)};
    CK(kc::launch_lookahead_scan<T, Compose>(nullptr, 0, in, out, m, excl == 1, seed, Compose{}, total, kprim::impl::TileState{tstate, ++epoch}, sms));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_out.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    T acc = seed; long bad = 0; const Compose op;
    for (long i = 0; i < m; ++i) {
      if (excl) { if (h_out[i].a != acc.a || h_out[i].b != acc.b) ++bad; acc = op(acc, h_in[i]); }
      else { acc = op(acc, h_in[i]); if (h_out[i].a != acc.a || h_out[i].b != acc.b) ++bad; }
    }
    T tot; CK(cudaMemcpy(&tot, total, sizeof(T), cudaMemcpyDeviceToHost));
    std::printf("  check ordered %zu-byte %s m=%ld: %ld mismatches, total %s\n", sizeof(T), excl ? "exclusive" : "inclusive", m, bad, tot.a == acc.a && tot.b == acc.b ? "ok" : "WRONG");
  }
  cudaFree(in); cudaFree(out); cudaFree(total);
  return 0;
}
__global__ void filld(double* x, long n) { for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) x[i] = double(i % 7); }
int time_double(int sms) {
  for (int log2 : {23, 25, 27}) {
    const long n = 1L << log2;
    using Shape = kc::LookaheadShape<double>;
    const long tiles = (n + Shape::tile_size - 1) / Shape::tile_size;
    double *in, *out, *total; CK(cudaMalloc(&in, n * 8)); CK(cudaMalloc(&out, n * 8)); CK(cudaMalloc(&total, 16));
    filld<<<1024, 256>>>(in, n);
    const auto need = kc::scan_tile_state_for<double, Shape>(n);
    const std::size_t state_bytes = 4 * need.bytes + 4096; unsigned char* tstate; CK(cudaMalloc(&tstate, state_bytes)); CK(cudaMemset(tstate, 0, state_bytes));
    const int grid = int(std::min<long>(tiles, long(sms) * Shape::blocks_per_sm));
    unsigned long long* probe; CK(cudaMalloc(&probe, grid * 16 * 8));
    CK(cudaMemcpyToSymbol(kc::lookahead::g_probe, &probe, sizeof(probe)));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    unsigned epoch = 0; std::vector<float> times, copies;
    for (int rep = 0; rep < 11; ++rep) {
      float ms;
      cudaEventRecord(e0);
      CK(kc::launch_lookahead_scan<double, kprim::Sum>(nullptr, 0, in, out, n, false, 0.0, kprim::Sum{}, total, kprim::impl::TileState{tstate, ++epoch}, sms));
      cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); cudaEventElapsedTime(&ms, e0, e1); times.push_back(ms * 1e3f);
      cudaEventRecord(e0); CK(cudaMemcpyAsync(out, in, n * 8, cudaMemcpyDeviceToDevice)); cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
      cudaEventElapsedTime(&ms, e0, e1); copies.push_back(ms * 1e3f);
    }
    std::sort(times.begin(), times.end()); std::sort(copies.begin(), copies.end());
    std::printf("n=2^%d double scan (instrumented) median %.1f us, copy %.1f us\n", log2, times[5], copies[5]);
    cudaFree(in); cudaFree(out); cudaFree(total); cudaFree(tstate); cudaFree(probe);
  }
  return 0;
}
int main(int argc, char** argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int log2 : {24, 26, 28}) {
    const long n = 1L << log2;
    using Shape = kc::LookaheadShape<float>;
    const long tiles = (n + Shape::tile_size - 1) / Shape::tile_size;
    float *in, *out, *total; CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&total, 16));
    fill<<<1024, 256>>>(in, n);
    const auto need = kc::scan_tile_state_for<float, Shape>(n);
    const std::size_t state_bytes = 4 * need.bytes + 4096; unsigned char* tstate; CK(cudaMalloc(&tstate, state_bytes)); CK(cudaMemset(tstate, 0, state_bytes));
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
                           "", "poll iterations", "gap tiles", "", "windows walked", "found inclusive"};
    double tiles_sum = 0; for (int b = 0; b < grid; ++b) tiles_sum += h[b * 16 + 7];
    for (int c : {0, 1, 2, 3, 4, 5, 6, 9, 10, 12, 13}) {
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
    if (log2 == 26) { if (check_ordered<unsigned short>(n + 12345, sms, tstate, epoch) || check_ordered<unsigned>(n / 4 + 777, sms, tstate, epoch)) return 1; }
    cudaFree(in); cudaFree(out); cudaFree(total); cudaFree(tstate); cudaFree(probe);
  }
  return time_double(sms);
}
