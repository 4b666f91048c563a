// One-thread experiment behind thread::short_sum (impl/thread/vector_sum_short.hpp): 2^24
// elements in CSR segments of uniform length 1-32, each summed by a plain loop (the segmented
// reduce's short-segment loop before 2026-11-28) and by short_sum (32 elements read, masked by
// length, added as a tree). Not built by CMake; from the repository root:
//   g++ -O3 -std=c++20 -I include perf_tests/host_short_segments.cpp -o host-short-segments
//   taskset -c 1 ./host-short-segments
// Prints ns per element of both and whether their sums agree (the values are -1, 0, 1: exact).
#include <kprim/impl/thread/vector_sum_short.hpp>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <random>
#include <vector>
using clk = std::chrono::steady_clock;
using kprim::impl::thread::short_sum;
template <class T, class In>
__attribute__((noinline)) void plain(const In* x, const std::int64_t* off, std::int64_t S, T* out) {
  for (std::int64_t s = 0; s < S; ++s) { const std::int64_t b = off[s], e = off[s + 1]; T v = T(x[b]); for (std::int64_t i = b + 1; i < e; ++i) v += T(x[i]); out[s] = v; }
}
template <class T, class In>
__attribute__((noinline)) void lib(const In* x, const std::int64_t* off, std::int64_t S, T* out, std::int64_t n) {
  for (std::int64_t s = 0; s < S; ++s) { const std::int64_t b = off[s], e = off[s + 1];
    if (e - b <= 32 && b + 32 <= n) out[s] = short_sum<T>(x + b, int(e - b));
    else { T v = T(x[b]); for (std::int64_t i = b + 1; i < e; ++i) v += T(x[i]); out[s] = v; } }
}
template <class T, class In>
void run(const char* name, std::int64_t n) {
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> off{0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + 1 + std::int64_t(rng() % 32)));
  const std::int64_t S = off.size() - 1;
  std::vector<In> x(n); for (std::int64_t i = 0; i < n; ++i) x[i] = In(int(i % 3) - 1);
  std::vector<T> o1(S), o2(S);
  for (int rep = 0; rep < 2; ++rep) {
    auto t0 = clk::now(); plain(x.data(), off.data(), S, o1.data());
    auto t1 = clk::now(); lib(x.data(), off.data(), S, o2.data(), n);
    auto t2 = clk::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / n; };
    std::printf("%-14s plain %.3f short_sum %.3f ns/elem %s\n", name, ns(t0, t1), ns(t1, t2), o1 == o2 ? "same" : "DIFFER");
  }
}
int main() {
  const std::int64_t n = 1 << 24;
  run<float, float>("float", n); run<double, float>("float->double", n);
  run<std::int32_t, std::int32_t>("int32", n); run<std::int64_t, std::int64_t>("int64", n); run<std::int64_t, std::int32_t>("int32->int64", n);
}
