// Experiment (not built by CMake): CRS offsets from a count lambda on a host space, the three kprim
// forms against Kokkos::parallel_scan with the lambda an application writes, every result checked:
// exclusive_scan_each (callback), transform_exclusive_scan into the offsets View (streaming stores
// for outputs >= 32 MiB), and the Kokkos lambda through kprim::parallel_scan. Median of `reps`
// calls, each after the offsets are reset; two rounds. Results: perf_tests/results/README.md
// ("Streaming stores for host scans", 2026-11-26).
//   g++ -std=c++20 -O3 -fopenmp -I include -I <build>/include -isystem <kokkos>/include
//       perf_tests/host_crs_forms.cpp <build>/libkprim.a -lkokkoscore -ldl -o crs-forms
//   OMP_NUM_THREADS=2 ./crs-forms 24 15
#include <kprim/kprim.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int log2_n = argc > 1 ? std::atoi(argv[1]) : 24;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 15;
  const std::int64_t n = std::int64_t(1) << log2_n;
  using Space = Kokkos::DefaultExecutionSpace;
  using Index = Kokkos::IndexType<std::int64_t>;
  const Kokkos::View<std::int32_t*> degrees("degrees", n);
  const Kokkos::View<std::int64_t*> offsets("offsets", n + 1), reference("reference", n + 1);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
    degrees(i) = std::int32_t((std::uint64_t(i) * 2654435761u >> 7) % 3);  // 0, 1 or 2 entries per row
  });
  const auto policy = Kokkos::RangePolicy<Space, Index>(0, n);
  const auto scan_lambda = KOKKOS_LAMBDA(std::int64_t i, std::int64_t& partial, bool final) {
    if (final) offsets(i) = partial;
    partial += degrees(i);
    if (final && i == n - 1) offsets(n) = partial;
  };
  Kokkos::parallel_scan("reference", policy, scan_lambda);
  Kokkos::deep_copy(reference, offsets);
  const auto count = KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(degrees(i)); };
  const auto write = KOKKOS_LAMBDA(std::int64_t i, std::int64_t prefix) { offsets(i) = prefix; };
  const auto rows = Kokkos::subview(offsets, Kokkos::make_pair(std::int64_t(0), n));
  const auto nnz = Kokkos::subview(offsets, n);

  const auto time = [&](const char* name, auto call) {
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      Kokkos::deep_copy(offsets, -1);
      Kokkos::fence();
      const auto start = std::chrono::steady_clock::now();
      call();
      Kokkos::fence();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i <= n; ++i) wrong += offsets(i) != reference(i);
    std::printf("%-38s min %8.2f  median %8.2f ms%s\n", name, ms.front(), ms[ms.size() / 2], wrong ? "  WRONG" : "");
  };
  std::printf("n = 2^%d, %s, %d threads\n", log2_n, Space::name(), Space().concurrency());
  for (int round = 0; round < 2; ++round) {
    time("Kokkos::parallel_scan", [&] { Kokkos::parallel_scan("kokkos", policy, scan_lambda); });
    time("kprim::exclusive_scan_each", [&] { kprim::exclusive_scan_each(Space(), n, count, write, std::int64_t(0), nnz); });
    time("kprim::transform_exclusive_scan", [&] {
      kprim::transform_exclusive_scan(Space(), n, count, rows, std::int64_t(0), nnz);
    });
    time("kprim::parallel_scan (Kokkos lambda)", [&] { kprim::parallel_scan("kprim", policy, scan_lambda); });
  }
}
