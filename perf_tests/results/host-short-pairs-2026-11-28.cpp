// One-thread experiment (issue #26, CPU): segments of 1-32 elements folded with a user op (a
// lambda add, which the library cannot see into) by the library's loop, and by loops that fold
// 2 or 4 neighbours first and join them to the running value (order kept, reassociated as an
// associative op allows: acc op (x[i] op x[i+1])), halving or quartering the dependent chain at
// the cost of a remainder loop. Not built by CMake; from the repository root:
//   g++ -O3 -std=c++20 perf_tests/results/host-short-pairs-2026-11-28.cpp -o host-short-pairs
//   taskset -c 1 ./host-short-pairs
// Output: perf_tests/results/AMD-EPYC-2core-2026-11-28-short-pairs.txt.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>
using clk = std::chrono::steady_clock;
template <class T, class In, class Op>
__attribute__((noinline)) void plain(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op) {
  for (std::int64_t s = 0; s < S; ++s) {
    const std::int64_t b = off[s], e = off[s + 1];
    T v = T(x[b]);
    for (std::int64_t i = b + 1; i < e; ++i) v = op(v, T(x[i]));
    out[s] = v;
  }
}
template <int Width, class T, class In, class Op>
__attribute__((noinline)) void grouped(const In* x, const std::int64_t* off, std::int64_t S, T* out, Op op) {
  for (std::int64_t s = 0; s < S; ++s) {
    const std::int64_t b = off[s], e = off[s + 1];
    T v = T(x[b]);
    std::int64_t i = b + 1;
    for (; i + Width <= e; i += Width) {
      if constexpr (Width == 2) {
        v = op(v, op(T(x[i]), T(x[i + 1])));
      } else {
        v = op(v, op(op(T(x[i]), T(x[i + 1])), op(T(x[i + 2]), T(x[i + 3]))));
      }
    }
    for (; i < e; ++i) v = op(v, T(x[i]));
    out[s] = v;
  }
}
template <class T>
bool close(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(double(a[i]) - double(b[i])) > 1e-5 * (1 + std::abs(double(a[i])))) return false;
  return true;
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = std::int64_t(off.size()) - 1;
  std::vector<In> x(n);
  for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1) + In(i % 7) / In(8);
  std::vector<T> o1(S), o2(S), o3(S);
  auto op = [](T a, T b) { return a + b; };
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = clk::now();
    plain(x.data(), off.data(), S, o1.data(), op);
    auto t1 = clk::now();
    grouped<2>(x.data(), off.data(), S, o2.data(), op);
    auto t2 = clk::now();
    grouped<4>(x.data(), off.data(), S, o3.data(), op);
    auto t3 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / double(n); };
    std::printf("%-14s n=%lld loop %.3f pairs %.3f quads %.3f ns/elem %s %s\n", name, static_cast<long long>(n), ns(t0, t1),
                ns(t1, t2), ns(t2, t3), close(o1, o2) ? "close" : "DIFFER", close(o1, o3) ? "close" : "DIFFER");
  }
}
int main() {
  for (const std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24}) {
    run<float, float>("float", n);
    run<double, float>("float->double", n);
    run<std::int32_t, std::int32_t>("int32", n);
    run<std::int64_t, std::int32_t>("int32->int64", n);
  }
}
