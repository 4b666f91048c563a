// kprim-table: runs kprim's primitives on the default execution space, checks each result, and
// prints a table of median times and GB/s of ideal traffic beside Kokkos' own parallel_reduce /
// parallel_scan and a device copy measured in the same run. A quick health check; the full
// benchmark with peers is kprim-bench.
//
//   kprim-table [--kokkos-...] [log2 sizes...]     default sizes: 2^20 2^24 2^26

#include <kprim/kprim.hpp>

#include <Kokkos_Core.hpp>

#include "perf_args.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Vec = Kokkos::View<float*, Space::memory_space>;

/// Median wall time of `repetitions` fenced runs after two warm-up runs, in seconds.
double median_seconds(const std::function<void()>& run, int repetitions = 20) {
  std::vector<double> times;
  for (int i = 0; i < repetitions + 2; ++i) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    run();
    Kokkos::fence();
    if (i >= 2) times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Row {
  std::string name;
  double seconds;
  double bytes;
};

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "kprim-table: WRONG RESULT in %s\n", what.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::vector<int> log2_sizes;
  kprim_perf::Arguments args("kprim-table", "kprim-table: kprim's primitives beside Kokkos' own and a copy, "
                                            "float, each result checked; a quick health check");
  args.positional("[log2 sizes ...] (default 20 24 26)",
                  [&](const std::string& v) { log2_sizes.push_back(kprim_perf::positive_int(v, "a log2 size")); });
  args.parse(argc, argv);
  if (log2_sizes.empty()) log2_sizes = {20, 24, 26};

  std::printf("kprim %s on %s (Kokkos %d), float\n", kprim::version_string(), Space::name(), KOKKOS_VERSION);
  std::printf("%-28s %12s %12s %10s %8s\n", "primitive", "n", "median us", "GB/s", "%copy");
  for (const int log2_n : log2_sizes) {
    const std::int64_t n = std::int64_t(1) << log2_n;
    Vec x("x", n), y("y", n), out("out", n);
    // Small integers: every sum and prefix below is exact in float, so results are checked exactly.
    Kokkos::parallel_for("init", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                         KOKKOS_LAMBDA(std::int64_t i) {
                           x(i) = float(i % 3) - 1.0f;
                           y(i) = float(i % 5) - 2.0f;
                         });
    float expected_sum = 0;  // sum of the pattern -1, 0, 1 repeated: only the tail counts
    for (std::int64_t i = n - n % 3; i < n; ++i) expected_sum += float(i % 3) - 1.0f;
    float expected_dot = 0;
    for (std::int64_t i = n - n % 15; i < n; ++i) expected_dot += (float(i % 3) - 1.0f) * (float(i % 5) - 2.0f);
    const double bytes = double(n) * sizeof(float);

    std::vector<Row> rows;
    rows.push_back({"copy (Kokkos::deep_copy)", median_seconds([&] { Kokkos::deep_copy(out, x); }), 2 * bytes});
    float value = 0;
    rows.push_back({"kprim::reduce", median_seconds([&] { value = kprim::reduce(x); }), bytes});
    check(value == expected_sum, "kprim::reduce");
    rows.push_back({"Kokkos::parallel_reduce", median_seconds([&] {
                      Kokkos::parallel_reduce(
                          "kokkos_reduce", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                          KOKKOS_LAMBDA(std::int64_t i, float& acc) { acc += x(i); }, value);
                    }),
                    bytes});
    check(value == expected_sum, "Kokkos::parallel_reduce");
    rows.push_back({"kprim::dot", median_seconds([&] { value = kprim::dot(x, y); }), 2 * bytes});
    check(value == expected_dot, "kprim::dot");
    rows.push_back({"kprim::inclusive_scan", median_seconds([&] { kprim::inclusive_scan(x, out); }), 2 * bytes});
    float last = 0;
    Kokkos::deep_copy(last, Kokkos::subview(out, n - 1));
    check(last == expected_sum, "kprim::inclusive_scan");
    rows.push_back({"kprim::exclusive_scan", median_seconds([&] { kprim::exclusive_scan(x, out, 0.0f); }), 2 * bytes});
    rows.push_back({"Kokkos::parallel_scan", median_seconds([&] {
                      Kokkos::parallel_scan(
                          "kokkos_scan", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                          KOKKOS_LAMBDA(std::int64_t i, float& partial, bool final) {
                            partial += x(i);
                            if (final) out(i) = partial;
                          });
                    }),
                    2 * bytes});
    Kokkos::deep_copy(last, Kokkos::subview(out, n - 1));
    check(last == expected_sum, "Kokkos::parallel_scan");

    const double copy_gbps = rows[0].bytes / rows[0].seconds / 1e9;
    for (const Row& row : rows) {
      const double gbps = row.bytes / row.seconds / 1e9;
      std::printf("%-28s %12lld %12.1f %10.1f %7.0f%%\n", row.name.c_str(), (long long)n, row.seconds * 1e6, gbps,
                  100 * gbps / copy_gbps);
    }
  }
  return 0;
}
