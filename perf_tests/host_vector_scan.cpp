// Experiment (not built by CMake): one host thread's Sum scan of a contiguous run, element by
// element through accessors (thread::scan_run_as, what the host look-back scan ran before
// 2026-11-27) against 16-byte SSE2 vectors (thread::sum_scan_vectors, what it runs now) and
// blocks of 1, 2 and 4 vectors (the candidates for sum_scan_vectors' block), and the serial
// std::inclusive_scan. Runs of 16384 elements (the host scan's tile: in L2) over n = 16384 and
// 2^20 (in the last-level cache). Exclusive: `vectors` is the library's form for in and out apart
// (the inclusive vectors stored one element on; the `shifted` column of 2026-11-27/28, which ran
// this experiment's own copy of it), `lanes` its lane-shifting form (in place; before 2026-11-28
// also apart). Every result is checked against a serial scan. Median of 50 /
// 2000 calls, ns per element. Results: perf_tests/results/README.md ("Host scans in vectors").
//   g++ -std=c++20 -O3 -DNDEBUG -fopenmp -I include -I <build>/include -isystem <kokkos>/include
//       perf_tests/host_vector_scan.cpp -lkokkoscore -ldl -o host-vector-scan
//   taskset -c 1 ./host-vector-scan
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/impl/thread/vector_sum_scan.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using namespace kprim::impl::thread::vector_sum;

/// Candidate: blocks of Vectors vectors, the running prefix carried as in sum_scan_vectors.
template <int Vectors, class T, class In>
T scan_in_blocks_of(const In* in, T* out, std::int64_t count, T prefix) {
  constexpr int width = lanes<T>, block = Vectors * width;
  __m128i carry = broadcast(prefix);
  std::int64_t i = 0;
  for (; i + block <= count; i += block) {
    __m128i x[Vectors];
    for (int v = 0; v < Vectors; ++v) x[v] = scan_lanes<T>(load<T>(in + i + v * width));
    for (int v = 1; v < Vectors; ++v) x[v] = add<T>(x[v], last_lane<T>(x[v - 1]));
    for (int v = 0; v < Vectors; ++v) store<false>(out + i + v * width, add<T>(carry, x[v]));
    carry = add<T>(carry, last_lane<T>(x[Vectors - 1]));
  }
  return sum_scan_elements<false>(in + i, out + i, count - i, first_lane<T>(carry));
}

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

template <class In, class T>
void compare(const char* name, std::int64_t n) {
  constexpr std::int64_t tile = 16384;
  std::vector<In> in(n);
  for (std::int64_t i = 0; i < n; ++i) in[i] = In((i * 7) % 13);  // small integers: every prefix exact
  std::vector<T> out(n);
  const In* source = in.data();
  T* target = out.data();
  const auto get = [source](std::int64_t i) { return T(source[i]); };
  const auto put = [target](std::int64_t i, const T& v) { target[i] = v; };
  bool wrong = false;
  const auto check = [&](bool exclusive) {
    T prefix = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T before = prefix;
      prefix += T(in[i]);
      if (out[i] != (exclusive ? before : prefix)) wrong = true;
    }
  };
  const auto tiles = [&](auto scan_tile) {
    return [&, scan_tile] {
      T prefix = 0;
      for (std::int64_t b = 0; b < n; b += tile) prefix = scan_tile(b, std::min(n, b + tile), prefix);
    };
  };
  const auto accessors = [&](auto exclusive) {
    return tiles([&](std::int64_t b, std::int64_t e, T p) {
      return kprim::impl::thread::scan_run_as<decltype(exclusive)::value, T>(b, e, get, put, p, kprim::Sum{});
    });
  };
  const auto vectors = [&](bool exclusive) {
    return tiles([&, exclusive](std::int64_t b, std::int64_t e, T p) {
      return kprim::impl::thread::sum_scan_vectors<T>(source + b, target + b, e - b, p, exclusive, false);
    });
  };
  // The library's lane-shifting exclusive blocks (its path before 2026-11-28, still its in-place one).
  const auto lane_shifts = tiles([&](std::int64_t b, std::int64_t e, T p) {
    return kprim::impl::thread::vector_sum::sum_scan_blocks<true, false>(source + b, target + b, e - b, p);
  });
  const auto blocks = [&](auto vectors_per_block) {
    return tiles([&](std::int64_t b, std::int64_t e, T p) {
      return scan_in_blocks_of<decltype(vectors_per_block)::value>(source + b, target + b, e - b, p);
    });
  };
  const int reps = n > tile ? 50 : 2000;
  const auto timed = [&](auto scan, bool exclusive) {
    scan();
    check(exclusive);
    return median_us(scan, reps) * 1e3 / double(n);
  };
  const double incl_accessors = timed(accessors(std::false_type{}), false);
  const double incl_vectors = timed(vectors(false), false);
  const double excl_accessors = timed(accessors(std::true_type{}), true);
  const double excl_vectors = timed(vectors(true), true);
  const double excl_lanes = timed(lane_shifts, true);
  const double one = timed(blocks(std::integral_constant<int, 1>{}), false);
  const double two = timed(blocks(std::integral_constant<int, 2>{}), false);
  const double four = timed(blocks(std::integral_constant<int, 4>{}), false);
  const double serial = timed([&] { std::inclusive_scan(in.begin(), in.end(), out.begin(), std::plus<T>(), T(0)); }, false);
  std::printf("%-13s %8ld | %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.3f%s\n", name, long(n),
              incl_accessors, incl_vectors, excl_accessors, excl_vectors, excl_lanes, one, two, four, serial,
              wrong ? "  WRONG" : "");
}

}  // namespace

int main() {
  std::printf("ns per element, one thread      inclusive      exclusive                blocks of 1/2/4 vectors   std\n");
  std::printf("type               n    | accessors vectors | accessors vectors lanes |                      | serial\n");
  for (const std::int64_t n : {std::int64_t(16384), std::int64_t(1) << 20}) {
    compare<float, float>("float", n);
    compare<double, double>("double", n);
    compare<std::int32_t, std::int32_t>("int32", n);
    compare<std::int64_t, std::int64_t>("int64", n);
    compare<std::int32_t, std::int64_t>("int32->int64", n);
  }
}
