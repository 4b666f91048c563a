// Host timing driver (ninth session, 2026-12-04; not a kprim target): default vs Determinism::bitwise reduce and scans of
// floats and doubles, median of <reps> fenced calls. Built in the sid root against include/ and the CPU build's libkprim.a.
#include <kprim/kprim.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>
using Space = Kokkos::DefaultExecutionSpace;
static double median_us(const std::function<void()>& call, int reps) {
  call(); Space().fence();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now(); call(); Space().fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int log2 = argc > 1 ? std::atoi(argv[1]) : 22, reps = argc > 2 ? std::atoi(argv[2]) : 10;
  const char* which = argc > 3 ? argv[3] : "all";
  const std::int64_t n = std::int64_t(1) << log2;
  Kokkos::View<float*> x("x", n), out("out", n);
  Kokkos::View<double*> xd("xd", n), outd("outd", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(std::int64_t i) { x(i) = float((i * 7919) % 1000) * 0.001f; xd(i) = x(i); });
  const kprim::ScanOptions bw{.determinism = kprim::Determinism::bitwise};
  const std::string w = which;
  if (w == "all" || w == "float") {
    std::printf("float  default %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), x, out); }, reps));
    std::printf("float  bitwise %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), x, out, kprim::Sum{}, bw); }, reps));
    std::printf("float  bitwise exclusive %9.1f us\n", median_us([&] { kprim::exclusive_scan(Space(), x, out, 0.0f, kprim::Sum{}, bw); }, reps));
    std::printf("float  bitwise reduce %9.1f us\n", median_us([&] { volatile float r = kprim::reduce(Space(), x, kprim::Sum{}, kprim::ReduceOptions{.determinism = kprim::Determinism::bitwise}); (void)r; }, reps));
    std::printf("float  default reduce %9.1f us\n", median_us([&] { volatile float r = kprim::reduce(Space(), x, kprim::Sum{}); (void)r; }, reps));
  }
  if (w == "bwscan") std::printf("float  bitwise %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), x, out, kprim::Sum{}, bw); }, reps));
  if (w == "bwreduce") std::printf("float  bitwise reduce %9.1f us\n", median_us([&] { volatile float r = kprim::reduce(Space(), x, kprim::Sum{}, kprim::ReduceOptions{.determinism = kprim::Determinism::bitwise}); (void)r; }, reps));
  if (w == "defscan") std::printf("float  default %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), x, out); }, reps));
  if (w == "defreduce") std::printf("float  default reduce %9.1f us\n", median_us([&] { volatile float r = kprim::reduce(Space(), x, kprim::Sum{}); (void)r; }, reps));
  if (w == "bwscand") std::printf("double bitwise %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), xd, outd, kprim::Sum{}, bw); }, reps));
  if (w == "bwexcl") std::printf("float  bitwise exclusive %9.1f us\n", median_us([&] { kprim::exclusive_scan(Space(), x, out, 0.0f, kprim::Sum{}, bw); }, reps));
  if (w == "all" || w == "double") {
    std::printf("double default %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), xd, outd); }, reps));
    std::printf("double bitwise %9.1f us\n", median_us([&] { kprim::inclusive_scan(Space(), xd, outd, kprim::Sum{}, bw); }, reps));
  }
}
