#include <kprim/scan.hpp>
#include <kprim/reduce.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <execution>
#include <numeric>
#include <vector>
template <class F> double med(F&& f, int reps) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) { auto s = std::chrono::steady_clock::now(); f(); t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count()); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
template <class T> void run(const char* type, std::int64_t n) {
  Kokkos::View<T*> in("in", n), out("out", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(std::int64_t i) { in(i) = T(i % 7); });
  Kokkos::fence();
  Kokkos::DefaultExecutionSpace space;
  const int reps = 60;
  double copy = med([&] { Kokkos::deep_copy(space, out, in); space.fence(); }, reps);
  double si = med([&] { std::inclusive_scan(std::execution::par_unseq, in.data(), in.data() + n, out.data()); }, reps);
  double inc = med([&] { kprim::inclusive_scan(space, in, out); space.fence(); }, reps);
  double exc = med([&] { kprim::exclusive_scan(space, in, out, T(0)); space.fence(); }, reps);
  volatile T sink;
  double red = med([&] { sink = kprim::reduce(space, in); }, reps);
  std::printf("%-6s %9ld copy %8.1f std-incl %8.1f | incl %8.1f excl %8.1f reduce %8.1f us | incl %.2f copy %.2f std\n", type, long(n), copy, si, inc, exc, red, copy / inc, si / inc);
  std::fflush(stdout);
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  for (std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 22}) {
    run<float>("float", n); run<std::int32_t>("int32", n); run<double>("double", n); run<std::int64_t>("int64", n);
  }
}
