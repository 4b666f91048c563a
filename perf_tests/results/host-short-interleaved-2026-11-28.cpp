// One-thread experiment (issue #26, CPU; not kept): short segments (1-32) folded with a user op, G segments side by side for the longest one's trip count,
// each lane's update kept by a select (one loop exit a group instead of one a segment), against the plain loop of host_reduce.
// Not built by CMake: g++ -O3 -std=c++20 perf_tests/results/host-short-interleaved-2026-11-28.cpp -o inter && taskset -c 1 ./inter
#include <algorithm>
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
template <int G, class T, class In, class Op>
__attribute__((noinline)) void inter(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op, std::int64_t n) {
  std::int64_t s = 0;
  for (; s + G <= S; s += G) {
    std::int64_t b[G]; int len[G]; T v[G]; int most = 0;
#pragma GCC unroll 16
    for (int g = 0; g < G; ++g) { b[g] = off[s + g]; len[g] = int(off[s + g + 1] - b[g]); most = std::max(most, len[g]); v[g] = T(x[b[g]]); }
    if (most > 32) { for (int g = 0; g < G; ++g) { T w = T(x[b[g]]); for (std::int64_t i = b[g] + 1; i < b[g] + len[g]; ++i) w = op(w, T(x[i])); out[s + g] = w; } continue; }
    for (int k = 1; k < most; ++k) {
#pragma GCC unroll 16
      for (int g = 0; g < G; ++g) {
        const std::int64_t i = std::min(b[g] + k, n - 1);
        const T c = op(v[g], T(x[i]));
        v[g] = __builtin_expect_with_probability(k < len[g], 1, 0.5) ? c : v[g];
      }
    }
#pragma GCC unroll 16
    for (int g = 0; g < G; ++g) out[s + g] = v[g];
  }
  for (; s < S; ++s) { const std::int64_t b = off[s], e = off[s + 1]; T v = T(x[b]); for (std::int64_t i = b + 1; i < e; ++i) v = op(v, T(x[i])); out[s] = v; }
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = off.size() - 1;
  std::vector<In> x(n); for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1);
  std::vector<T> o1(S), o2(S), o3(S), o4(S);
  auto op = [](T a, T b) { return a + b; };
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = clk::now(); plain(x.data(), off.data(), S, o1.data(), op);
    auto t1 = clk::now(); inter<4>(x.data(), off.data(), S, o2.data(), op, n);
    auto t2 = clk::now(); inter<8>(x.data(), off.data(), S, o3.data(), op, n);
    auto t3 = clk::now(); inter<16>(x.data(), off.data(), S, o4.data(), op, n);
    auto t4 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
    std::printf("%-14s plain %.3f inter4 %.3f inter8 %.3f inter16 %.3f ns/elem %s\n", name, ns(t0, t1), ns(t1, t2), ns(t2, t3), ns(t3, t4), (o1 == o2 && o1 == o3 && o1 == o4) ? "same" : "DIFFER");
  }
}
int main() {
  const std::int64_t n = 1 << 24;
  run<float, float>("float", n); run<double, float>("float->double", n); run<double, double>("double", n);
  run<std::int32_t, std::int32_t>("int32", n); run<std::int64_t, std::int32_t>("int32->int64", n);
}
