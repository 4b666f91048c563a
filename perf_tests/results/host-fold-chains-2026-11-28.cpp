// Experiment (stand-alone, not built by CMake): one host thread's fold (thread::fold_run, Sum) of
// contiguous runs of 65536 elements (in L2) with 8, 16 and 32 chains a fold block, ns per element,
// median of 2000 calls. Results: perf_tests/results/README.md ("Host scans: larger tiles, more
// chains").
//   g++ -std=c++20 -O3 -DNDEBUG -fopenmp -I include -I <build>/include -isystem <kokkos>/include
//       perf_tests/results/host-fold-chains-2026-11-28.cpp -lkokkoscore -ldl -o fold-chains
//   taskset -c 1 ./fold-chains
#include <kprim/impl/thread/chained_run.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

template <class F>
double median_us(F&& f, int reps) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T, int Chains>
double fold_ns(const std::vector<T>& x) {
  const T* p = x.data();
  const std::int64_t n = std::int64_t(x.size());
  volatile T sink;
  const double us = median_us([&] { sink = kprim::impl::thread::fold_run<T, Chains>(0, n, [p](std::int64_t i) { return p[i]; }, kprim::Sum{}); }, 2000);
  if (sink != T(n)) std::printf("WRONG ");
  return us * 1e3 / double(n);
}

template <class T>
void run(const char* name) {
  const std::vector<T> x(65536, T(1));
  std::printf("%-7s %6.3f %6.3f %6.3f\n", name, fold_ns<T, 8>(x), fold_ns<T, 16>(x), fold_ns<T, 32>(x));
}

int main() {
  std::printf("ns per element, one thread, 65536 elements   chains 8 / 16 / 32\n");
  run<float>("float");
  run<double>("double");
  run<std::int32_t>("int32");
  run<std::int64_t>("int64");
}
