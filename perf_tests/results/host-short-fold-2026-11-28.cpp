// One-thread experiment (issue #26, CPU; not kept): can a segment of 1-32 elements be folded
// with a user op (here a lambda add, the op the library cannot see into) without a branch on its
// length, as thread::short_sum does for kprim::Sum? Two branch-free forms against the loop of
// host_reduce: tree32 (32 elements read, a pairwise tree whose right child joins only while it
// lies inside the segment; order kept) and by-sizes (the length's bits: trees of 16, 8, 4, 2, 1 in
// order). Not built by CMake; from the repository root:
//   g++ -O3 -std=c++20 perf_tests/results/host-short-fold-2026-11-28.cpp -o host-short-fold
//   taskset -c 1 ./host-short-fold
// Output: perf_tests/results/AMD-EPYC-2core-2026-11-28-short-fold.txt.
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <random>
#include <vector>
using clk = std::chrono::steady_clock;
template <class T, class In, class Op>
__attribute__((noinline)) void plain(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op) {
  for (std::int64_t s = 0; s < S; ++s) { const std::int64_t b = off[s], e = off[s + 1]; T v = T(x[b]); for (std::int64_t i = b + 1; i < e; ++i) v = op(v, T(x[i])); out[s] = v; }
}
template <class T, class In, class Op>
inline T tree32(const In* p, int length, Op op) {
  T v[32];
#pragma GCC unroll 32
  for (int k = 0; k < 32; ++k) v[k] = T(p[k]);
  int len = length;
#pragma GCC unroll 5
  for (int width = 32; width > 1; width /= 2) {
#pragma GCC unroll 16
    for (int k = 0; k < width / 2; ++k) { const T c = op(v[2 * k], v[2 * k + 1]); v[k] = 2 * k + 1 < len ? c : v[2 * k]; }
    len = (len + 1) / 2;
  }
  return v[0];
}
template <class T, class In, class Op>
inline T tree_by_sizes(const In* p, int length, Op op) {  // 32 = 16+8+4+2+1... binary decomposition, order kept
  T acc{}; bool have = false; int at = 0;
  // blocks of 16, 8, 4, 2, 1 by the bits of length (each block folded as a tree, blocks in order)
#pragma GCC unroll 6
  for (int size = 32; size >= 1; size /= 2) {
    if (length & size) {
      T v[32];
      for (int k = 0; k < size; ++k) v[k] = T(p[at + k]);
      for (int w = size; w > 1; w /= 2) for (int k = 0; k < w / 2; ++k) v[k] = op(v[2 * k], v[2 * k + 1]);
      acc = have ? op(acc, v[0]) : v[0]; have = true; at += size;
    }
  }
  return acc;
}
template <int Mode, class T, class In, class Op>
__attribute__((noinline)) void lib(const In* x, const std::int64_t* off, std::int64_t S, T* out, std::int64_t n, Op op) {
  for (std::int64_t s = 0; s < S; ++s) { const std::int64_t b = off[s], e = off[s + 1];
    if (e - b <= 32 && b + 32 <= n) out[s] = Mode == 0 ? tree32<T>(x + b, int(e - b), op) : tree_by_sizes<T>(x + b, int(e - b), op);
    else { T v = T(x[b]); for (std::int64_t i = b + 1; i < e; ++i) v = op(v, T(x[i])); out[s] = v; } }
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = off.size() - 1;
  std::vector<In> x(n); for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1);
  std::vector<T> o1(S), o2(S), o3(S);
  auto op = [](T a, T b) { return a + b; };
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = clk::now(); plain(x.data(), off.data(), S, o1.data(), op);
    auto t1 = clk::now(); lib<0>(x.data(), off.data(), S, o2.data(), n, op);
    auto t2 = clk::now(); lib<1>(x.data(), off.data(), S, o3.data(), n, op);
    auto t3 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
    std::printf("%-14s loop %.3f tree32 %.3f by-sizes %.3f ns/elem %s %s\n", name, ns(t0, t1), ns(t1, t2), ns(t2, t3), o1 == o2 ? "same" : "DIFFER", o1 == o3 ? "same" : "DIFFER");
  }
}
int main() {
  const std::int64_t n = 1 << 24;
  run<float, float>("float", n); run<double, float>("float->double", n);
  run<std::int32_t, std::int32_t>("int32", n); run<std::int64_t, std::int32_t>("int32->int64", n);
}
