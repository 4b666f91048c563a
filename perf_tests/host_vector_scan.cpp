// Experiment (not built by CMake): one host thread's Sum scan of a contiguous run, element by
// element through accessors (thread::scan_run_as, what the host look-back scan ran before
// 2026-11-27) against 16-byte SSE2 vectors (thread::sum_scan_vectors, what it runs now) and
// blocks of 1, 2 and 4 vectors (the candidates for sum_scan_vectors' block), and the serial
// std::inclusive_scan. Runs of 16384 elements (the host scan's tile: in L2) over n = 16384 and
// 2^20 (in the last-level cache). Exclusive: `vectors` is the library's form for in and out apart
// (the inclusive vectors stored one element on; the `shifted` column of 2026-11-27/28, which ran
// this experiment's own copy of it), `lanes` its lane-shifting form (in place; before 2026-11-28
// also apart). `avx2 2/4` (2026-11-28 night): 32-byte AVX2 vectors compiled by a target attribute, blocks of
// 2 and 4, same-type inclusive scans only (not in the library: 12-15% on the loop, which would
// need a run-time dispatch). Every result is checked against a serial scan. Median of 50 /
// 2000 calls, ns per element. Results: perf_tests/results/README.md ("Host scans in vectors",
// "Host scans: larger tiles, more chains").
//   g++ -std=c++20 -O3 -DNDEBUG -fopenmp -I include -I <build>/include -isystem <kokkos>/include
//       perf_tests/host_vector_scan.cpp -lkokkoscore -ldl -o host-vector-scan
//   taskset -c 1 ./host-vector-scan
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/impl/thread/vector_sum_scan.hpp>

#include <immintrin.h>

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


#if defined(__GNUC__)
/// Candidate: 32-byte AVX2 vectors (8 lanes of 4 bytes, 4 of 8), compiled for AVX2 by a target
/// attribute whatever the build's -march, blocks of Vectors vectors as sum_scan_vectors.
template <class T>
__attribute__((target("avx2"))) inline __m256i add8(__m256i a, __m256i b) {
  if constexpr (std::is_same_v<T, float>)
    return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  else if constexpr (std::is_same_v<T, double>)
    return _mm256_castpd_si256(_mm256_add_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)));
  else if constexpr (sizeof(T) == 4)
    return _mm256_add_epi32(a, b);
  else
    return _mm256_add_epi64(a, b);
}
/// The last lane of v in every lane.
template <class T>
__attribute__((target("avx2"))) inline __m256i last8(__m256i v) {
  const __m256i high = _mm256_permute2x128_si256(v, v, 0x11);  // the high half in both
  return sizeof(T) == 4 ? _mm256_shuffle_epi32(high, 0xFF) : _mm256_shuffle_epi32(high, 0xEE);
}
/// The inclusive sum of v's lanes: within each 16-byte half, then the low half's last added to the high half.
template <class T>
__attribute__((target("avx2"))) inline __m256i scan8(__m256i v) {
  v = add8<T>(v, _mm256_slli_si256(v, int(sizeof(T))));
  if constexpr (sizeof(T) == 4) v = add8<T>(v, _mm256_slli_si256(v, 8));
  const __m256i low_last = sizeof(T) == 4 ? _mm256_shuffle_epi32(v, 0xFF) : _mm256_shuffle_epi32(v, 0xEE);
  return add8<T>(v, _mm256_permute2x128_si256(low_last, low_last, 0x08));  // low half: zero; high: the low's last
}
template <int Vectors, class T>
__attribute__((target("avx2"))) T scan_avx2(const T* in, T* out, std::int64_t count, T prefix) {
  constexpr int width = int(32 / sizeof(T)), block = Vectors * width;
  T copies[width];
  for (int k = 0; k < width; ++k) copies[k] = prefix;
  __m256i carry = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(copies));
  std::int64_t i = 0;
  for (; i + block <= count; i += block) {
    __m256i x[Vectors];
    for (int v = 0; v < Vectors; ++v) x[v] = scan8<T>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + v * width)));
    for (int v = 1; v < Vectors; ++v) x[v] = add8<T>(x[v], last8<T>(x[v - 1]));
    for (int v = 0; v < Vectors; ++v)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + v * width), add8<T>(carry, x[v]));
    carry = add8<T>(carry, last8<T>(x[Vectors - 1]));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(copies), carry);
  return sum_scan_elements<false>(in + i, out + i, count - i, copies[0]);
}
#endif

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
  double avx2_2 = 0, avx2_4 = 0;
  if constexpr (std::is_same_v<In, T>) {
    avx2_2 = timed(tiles([&](std::int64_t b, std::int64_t e, T p) { return scan_avx2<2>(source + b, target + b, e - b, p); }), false);
    avx2_4 = timed(tiles([&](std::int64_t b, std::int64_t e, T p) { return scan_avx2<4>(source + b, target + b, e - b, p); }), false);
  }
  const double serial = timed([&] { std::inclusive_scan(in.begin(), in.end(), out.begin(), std::plus<T>(), T(0)); }, false);
  std::printf("%-13s %8ld | %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.3f %6.3f | %6.3f%s\n", name, long(n),
              incl_accessors, incl_vectors, excl_accessors, excl_vectors, excl_lanes, one, two, four, avx2_2, avx2_4, serial,
              wrong ? "  WRONG" : "");
}

}  // namespace

int main() {
  std::printf("ns per element, one thread      inclusive      exclusive                blocks of 1/2/4 vectors   avx2 2/4      std\n");
  std::printf("type               n    | accessors vectors | accessors vectors lanes |                      | serial\n");
  for (const std::int64_t n : {std::int64_t(16384), std::int64_t(1) << 20}) {
    compare<float, float>("float", n);
    compare<double, double>("double", n);
    compare<std::int32_t, std::int32_t>("int32", n);
    compare<std::int64_t, std::int64_t>("int64", n);
    compare<std::int32_t, std::int64_t>("int32->int64", n);
  }
}
