// Probe (ninth session, 2026-12-04; not a kprim target): CSR vs fixed segmented scans of floats, timed as kprim-bench
// does (median of 20 fenced calls after one warm-up, rounds interleaved), each layout checked once on the host.
// Usage: seg-probe-<variant> [log2 n = 26] [rounds = 3]. Built beside a CUDA build of kprim (build/), one executable a
// variant, each with its own copy of include/ (inc-<variant>, csr-probes-2026-12-04.patch), by this CMakeLists.txt:
//   cmake_minimum_required(VERSION 3.25)
//   project(seg_probe CXX)
//   find_package(Kokkos REQUIRED)
//   foreach(v IN LISTS PROBES)
//     add_executable(seg-probe-${v} seg_probe.cpp)
//     target_include_directories(seg-probe-${v} PRIVATE ${CMAKE_SOURCE_DIR}/inc-${v} /work/main/build/include)
//     target_compile_features(seg-probe-${v} PRIVATE cxx_std_20)
//     target_link_libraries(seg-probe-${v} PRIVATE /work/main/build/libkprim.a Kokkos::kokkos)
//   endforeach()
//   (configure: -DCMAKE_CXX_COMPILER=<nvcc_wrapper> -DKokkos_DIR=<CUDA Kokkos> "-DPROBES=base;bounds;idle12;nowait;arith")
#include <kprim/kprim.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>
using Space = Kokkos::DefaultExecutionSpace;
using V = Kokkos::View<float*, Space::memory_space>;
using O = Kokkos::View<std::int64_t*, Space::memory_space>;
static double median_us(const std::function<void()>& call, int reps) {
  call(); Space().fence();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now(); call(); Space().fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
// The bench's ~1000 and ~10^6 mixes (kprim_bench.cpp's segment_layout), or segments of `fixed` elements.
static std::vector<std::int64_t> layout(const std::string& mix, std::int64_t n, std::int64_t fixed = 0) {
  std::vector<std::int64_t> off{0};
  std::mt19937_64 rng(20261126);
  while (off.back() < n) {
    std::int64_t len = fixed > 0 ? fixed
                     : mix == "1e6" ? 500'000 + std::int64_t(rng() % 1'000'001)
                     : 500 + std::int64_t(rng() % 1001);
    off.push_back(std::min(n, off.back() + len));
  }
  return off;
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int log2 = argc > 1 ? std::atoi(argv[1]) : 26, rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::int64_t n = std::int64_t(1) << log2;
  V x("x", n), out("out", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(std::int64_t i) { x(i) = float(i % 3) - 1.0f; });
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, x);
  struct Case { std::string name; std::vector<std::int64_t> off; std::int64_t fixed; O offsets; std::vector<double> us; };
  std::vector<Case> cases;
  cases.push_back({"copy", {}, 0, {}, {}});
  for (std::string m : {"1000", "1e6"}) {
    const std::int64_t f = m == "1000" ? 1000 : 1000000;
    cases.push_back({"fixed_" + m, layout(m, n, f), f, {}, {}});
    cases.push_back({"csr_fixed_" + m, layout(m, n, f), 0, {}, {}});
    cases.push_back({"mix_" + m, layout(m, n), 0, {}, {}});
  }
  for (auto& c : cases) {
    if (c.off.empty()) continue;
    c.offsets = O("offsets", c.off.size());
    Kokkos::deep_copy(c.offsets, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(c.off.data(), c.off.size()));
  }
  const auto run = [&](Case& c) {
    if (c.name == "copy") Kokkos::deep_copy(Space(), out, x);
    else if (c.fixed > 0) kprim::segmented_inclusive_scan(Space(), x, c.fixed, out);
    else {
#ifdef KPRIM_PROBE_ARITH  // the arith probe: heads by arithmetic on the layout's fixed size (mixes come out wrong)
      kprim::impl::segments::probe_segment_size = c.off.size() > 1 ? c.off[1] - c.off[0] : 1;
#endif
      kprim::segmented_inclusive_scan(Space(), x, c.offsets, out);
    }
  };
  for (auto& c : cases) {  // check once
    if (c.off.empty()) continue;
    run(c); Space().fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
    std::int64_t wrong = 0;
    for (std::size_t s = 0; s + 1 < c.off.size(); ++s) {
      float r = 0;
      for (std::int64_t i = c.off[s]; i < c.off[s + 1]; ++i) { r += hx(i); wrong += h(i) != r; }
    }
    std::printf("check %-16s segments %zu wrong %lld\n", c.name.c_str(), c.off.size() - 1, (long long)wrong);
  }
  for (int r = 0; r < rounds; ++r)
    for (auto& c : cases) c.us.push_back(median_us([&] { run(c); }, 20));
  std::vector<double> copy = cases[0].us;
  std::sort(copy.begin(), copy.end());
  for (auto& c : cases) {
    auto u = c.us; std::sort(u.begin(), u.end());
    const double m = u[u.size() / 2];
    std::printf("%-16s n=2^%d median %9.1f us  %7.1f GB/s  copy/this %.3f  (rounds:", c.name.c_str(), log2, m,
                2.0 * n * 4 / m / 1e3, copy[copy.size() / 2] / m);
    for (double v : c.us) std::printf(" %.1f", v);
    std::printf(")\n");
  }
}
