// Experiment (issue #26, CPU; not built by CMake): the host segmented reduce's short-segment loop for a
// user's op against each segment folded as two halves, two independent chains joined in order (valid for any
// associative op). g++ 12 -O3, one thread: g++ -O3 -std=c++20 host-short-halves-2026-11-29.cpp && taskset -c 1 ./a.out.
// Output: AMD-EPYC-2core-2026-11-29-short-halves.txt.
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
template <class T, class In, class Op>
__attribute__((noinline)) void halves(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op) {
  for (std::int64_t s = 0; s < S; ++s) {
    const std::int64_t b = off[s], e = off[s + 1], half = (e - b) / 2, m = e - half;  // [b, m) and [m, e)
    T left = T(x[b]);
    if (half == 0) { out[s] = left; continue; }
    T right = T(x[m]);
    for (std::int64_t k = 1; k < half; ++k) {
      left = op(left, T(x[b + k]));
      right = op(right, T(x[m + k]));
    }
    if (m - b > half) left = op(left, T(x[m - 1]));
    out[s] = op(left, right);
  }
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = off.size() - 1;
  std::vector<In> x(n);
  for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1);
  std::vector<T> o1(S), o2(S);
  const auto op = [](T a, T b) { return a + b; };
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = clk::now(); loop(x.data(), off.data(), S, o1.data(), op);
    auto t1 = clk::now(); halves(x.data(), off.data(), S, o2.data(), op);
    auto t2 = clk::now(); loop(x.data(), off.data(), S, o1.data(), op);
    auto t3 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
    std::printf("%-14s loop %.3f halves %.3f loop %.3f ns/elem %s\n", name, ns(t0, t1), ns(t1, t2), ns(t2, t3), o1 == o2 ? "same" : "DIFFER");
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
