// Experiment (not built by CMake): CRS offsets from int32 counts (int64 exclusive scan, total in
// out[n]) in plain C++ with OpenMP on 2 threads, to see what a host scan can reach without kprim's
// or Kokkos' layers: Kokkos' two passes over halves, tiles folded then scanned (kprim's host
// look-back, with an in-order chain standing in for the look-back), the same with a prefetch of
// the next tile, a fused tile (local scan written at once, prefix added while the tile is in L2),
// a widening copy (the same traffic with no scan), and (2026-11-26) the folded-then-scanned tiles
// written with 16-byte streaming stores (no read of each output line before it is written: kprim's
// host scans of outputs >= 32 MiB since then). Results: perf_tests/results/README.md (2026-11-25
// and 2026-11-26, 2-core Intel VM).
//   g++ -O3 -march=native -fopenmp host_crs_scan_experiment.cpp -o crs && OMP_PROC_BIND=spread ./crs 24
#include <omp.h>
#include <emmintrin.h>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <chrono>
#include <algorithm>
#include <atomic>
#include <cstring>
using clk = std::chrono::steady_clock;
static double secs(clk::time_point a) { return std::chrono::duration<double>(clk::now() - a).count(); }
int main(int argc, char** argv) {
  const int64_t n = int64_t(1) << (argc > 1 ? atoi(argv[1]) : 24);
  std::vector<int32_t> deg(n); std::vector<int64_t> off(n + 1);
  for (int64_t i = 0; i < n; ++i) deg[i] = int32_t(i % 3);
  const int32_t* d = deg.data(); int64_t* o = off.data();
  auto best = [&](auto f) { double b = 1e9; for (int r = 0; r < 7; ++r) { auto t = clk::now(); f(); b = std::min(b, secs(t)); } return b * 1e3; };
  int64_t check = 0; for (int64_t i = 0; i < n; ++i) check += d[i] + 1;
  // Two passes over halves (Kokkos' OpenMP parallel_scan).
  double two = best([&] {
    int64_t part[2];
#pragma omp parallel num_threads(2)
    { int t = omp_get_thread_num(); int64_t b = n * t / 2, e = n * (t + 1) / 2, s = 0;
      for (int64_t i = b; i < e; ++i) s += d[i] + 1;
      part[t] = s;
#pragma omp barrier
      int64_t p = t ? part[0] : 0;
      for (int64_t i = b; i < e; ++i) { o[i] = p; p += d[i] + 1; }
      if (t == 1) o[n] = p; }
  });
  if (o[n] != check) printf("two wrong\n");
  // Tiles: fold then scan each tile, tiles chained in order through a shared prefix (a stand-in
  // for look-back). The scan writes with plain stores, plain stores with a prefetch of the tile this
  // thread probably takes next (2 ahead), or 16-byte streaming stores of offset pairs.
  enum class Stores { plain, prefetch, streamed };
  auto tiled = [&](int64_t tile, Stores stores) {
    return best([&] {
      const int64_t tiles = (n + tile - 1) / tile;
      std::vector<std::atomic<int64_t>> inc(tiles); for (auto& x : inc) x.store(-1);
      std::atomic<int64_t> ticket{0};
#pragma omp parallel num_threads(2)
      { for (;;) { int64_t k = ticket.fetch_add(1); if (k >= tiles) break;
          int64_t b = k * tile, e = std::min(n, b + tile), s = 0;
          for (int64_t i = b; i < e; ++i) s += d[i] + 1;
          int64_t p = 0; if (k) { while ((p = inc[k - 1].load(std::memory_order_acquire)) < 0) {} }
          inc[k].store(p + s, std::memory_order_release);
          int64_t i = b;
          if (stores == Stores::streamed) {  // tiles of 16384 start 16-byte aligned in a vector's storage
            for (; i + 2 <= e; i += 2) {
              const int64_t next = p + d[i] + 1;
              _mm_stream_si128(reinterpret_cast<__m128i*>(o + i), _mm_set_epi64x(next, p));
              p = next + d[i + 1] + 1; }
          }
          const int64_t nb = std::min(n, e + tile);
          for (; i < e; ++i) {
            if (stores == Stores::prefetch && ((i - b) & 15) == 0) __builtin_prefetch(d + std::min(nb - 1, i + tile), 0, 3);
            o[i] = p; p += d[i] + 1; }
          if (e == n) o[n] = p;
          if (stores == Stores::streamed) _mm_sfence(); } }
    });
  };
  double t16 = tiled(16384, Stores::plain), t64 = tiled(65536, Stores::plain), t16p = tiled(16384, Stores::prefetch);
  if (o[n] != check) printf("tiled wrong\n");
  double s16 = tiled(16384, Stores::streamed);
  if (o[n] != check) printf("streamed wrong\n");
  printf("tiles 16K with streaming stores %.2f ms\n", s16);
  // Fused: scan the tile locally into the output (reads and writes interleaved, as a copy), look
  // back, then add the prefix to the tile while it is in L2.
  auto fused = [&](int64_t tile) {
    return best([&] {
      const int64_t tiles = (n + tile - 1) / tile;
      std::vector<std::atomic<int64_t>> inc(tiles); for (auto& x : inc) x.store(-1);
      std::atomic<int64_t> ticket{0};
#pragma omp parallel num_threads(2)
      { for (;;) { int64_t k = ticket.fetch_add(1); if (k >= tiles) break;
          int64_t b = k * tile, e = std::min(n, b + tile), s = 0;
          for (int64_t i = b; i < e; ++i) { o[i] = s; s += d[i] + 1; }
          int64_t p = 0; if (k) { while ((p = inc[k - 1].load(std::memory_order_acquire)) < 0) {} }
          inc[k].store(p + s, std::memory_order_release);
          if (p) for (int64_t i = b; i < e; ++i) o[i] += p;
          if (e == n) o[n] = p + s; } }
    });
  };
  double f16 = fused(16384), f64 = fused(65536);
  if (o[n] != check) printf("fused wrong\n");
  printf("fused 16K %.2f ms, fused 64K %.2f ms\n", f16, f64);
  // A widening copy: the same memory traffic as a one-pass scan, no scan.
  double copy = best([&] {
    int64_t* w = o; 
#pragma omp parallel for num_threads(2) schedule(static)
    for (int64_t i = 0; i < n; ++i) w[i] = d[i];
  });
  printf("n=2^%lld: two-pass %.2f ms, tiles 16K %.2f, tiles 64K %.2f, tiles 16K+prefetch %.2f, widen-copy %.2f ms\n",
         (long long)__builtin_ctzll(n), two, t16, t64, t16p, copy);
}
