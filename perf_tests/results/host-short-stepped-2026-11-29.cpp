// Experiment (issue #26, CPU; not built by CMake): the host segmented reduce's short-segment loop for a
// user's op (no identity, order kept) against 8 or 4 segments stepped together, each step an op and a
// select a segment (no branch on a length). g++ 12 -O3, one thread: g++ -O3 -std=c++20 host-short-stepped-2026-11-29.cpp
// && taskset -c 1 ./a.out. Output: AMD-EPYC-2core-2026-11-29-short-stepped.txt.
// One thread: segments of 1-32, a generic op (a lambda), loop vs 8 segments stepped together with selects.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>
using clk = std::chrono::steady_clock;
template <class T, class In, class Op>
__attribute__((noinline)) void loop(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op) {
  for (std::int64_t s = 0; s < S; ++s) {
    const std::int64_t b = off[s], e = off[s + 1];
    T v = T(x[b]);
    for (std::int64_t i = b + 1; i < e; ++i) v = op(v, T(x[i]));
    out[s] = v;
  }
}
template <int G, class T, class In, class Op>
__attribute__((noinline)) void stepped(const In* x, const std::int64_t* off, std::int64_t S, T* out, std::int64_t n, Op op) {
  std::int64_t s = 0;
  for (; s + G <= S; s += G) {
    std::int64_t b[G], len[G];
    T v[G];
    std::int64_t longest = 0;
    for (int g = 0; g < G; ++g) {
      b[g] = off[s + g];
      len[g] = off[s + g + 1] - b[g];
      v[g] = T(x[b[g]]);
      longest = std::max(longest, len[g]);
    }
    for (std::int64_t k = 1; k < longest; ++k)
      for (int g = 0; g < G; ++g) {
        const T y = T(x[std::min(b[g] + k, n - 1)]);
        const T f = op(v[g], y);
        v[g] = k < len[g] ? f : v[g];
      }
    for (int g = 0; g < G; ++g) out[s + g] = v[g];
  }
  loop(x, off + s, S - s, out + s, op);
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = off.size() - 1;
  std::vector<In> x(n);
  for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1);
  std::vector<T> o1(S), o2(S), o3(S);
  const auto op = [](T a, T b) { return a + b; };
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = clk::now(); loop(x.data(), off.data(), S, o1.data(), op);
    auto t1 = clk::now(); stepped<8>(x.data(), off.data(), S, o2.data(), n, op);
    auto t2 = clk::now(); stepped<4>(x.data(), off.data(), S, o3.data(), n, op);
    auto t3 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
    std::printf("%-14s loop %.3f stepped8 %.3f stepped4 %.3f ns/elem %s\n", name, ns(t0, t1), ns(t1, t2), ns(t2, t3),
                o1 == o2 && o1 == o3 ? "same" : "DIFFER");
  }
}
int main() {
  const std::int64_t n = 1 << 24;
  run<float, float>("float", n);
  run<double, float>("float->double", n);
  run<int, int>("int32", n);
  run<std::int64_t, int>("int32->int64", n);
  run<double, double>("double", n);
}
