// kprim-bench: kprim against its peers in one run, on the default Kokkos execution space.
//
// Every primitive (reduce, dot, inclusive_scan, exclusive_scan) x implementation (kprim per
// algorithm, Kokkos' parallel_reduce/parallel_scan, CUB on CUDA, std:: on host spaces, and a
// copy kernel as the bandwidth reference) x value type (int32, int64, float, double) x n.
// Each benchmark: one warm-up call, then >= 20 fenced calls timed one by one; the median is
// reported. Inputs live in the space's memory and are allocated outside the timing; kprim's and
// Kokkos' own temporaries are inside it (CUB's temporary storage is allocated once, outside,
// as CUB is normally used, which favours CUB). Each result is checked once against a closed
// form; a wrong answer aborts the run.
//
// Usage: kprim-bench [--kokkos-...] [--quick | --ladder] [--reps=N] [--max-log2=K] [--summary=FILE]
//                    [--benchmark_filter=...] [--benchmark_out=...] ...
//   --quick       float and int32, n = 2^10, 2^16, 2^20, 5 timed calls: a one-minute smoke run
//   --ladder      the seeds' ladders: float, double and int32 at n = 2^20, 2^24, 2^28 (those that fit
//                 in memory and --max-log2), every algorithm (all rungs) and the peers of the same
//                 run (copy, Kokkos, ...); perf_tests/ladder_table.py turns its summary CSV into the
//                 the ladder tables of docs/performance.md
//   --summary     summary CSV (default kprim-bench-summary.csv), header:
//                 device,date,commit,primitive,impl,algorithm,type,n,time_us,gbps,pct_copy

#include <kprim/kprim.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "perf_args.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(KPRIM_BENCH_WITH_CUB)
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda/std/functional>
#define KPRIM_BENCH_CUB 1
#endif
#if __has_include(<execution>)
#include <execution>
#define KPRIM_BENCH_STD_EXECUTION 1
#endif

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <kprim_git_commit.hpp>  // generated at build time: KPRIM_GIT_COMMIT

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using MemorySpace = Space::memory_space;
using Index = Kokkos::IndexType<std::int64_t>;
constexpr bool host_space = kprim::impl::is_host_space_v<Space>;

struct Settings {
  bool quick = false;
  bool ladder = false;
  int repetitions = 20;
  int max_log2 = 30;
  std::string summary = "kprim-bench-summary.csv";
} settings;

struct Measurement {
  std::string primitive, impl, algorithm, type;
  std::int64_t n;
  double time_us, gbps, pct_copy;
};
std::vector<Measurement> measurements;
std::map<std::pair<std::string, std::int64_t>, double> copy_gbps;  // (type, n) -> GB/s of the copy

template <class T> std::string type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>) return "complex128";
  else return "double";
}

[[noreturn]] void wrong(const std::string& what) {
  std::fprintf(stderr, "\nkprim-bench: WRONG RESULT: %s\n", what.c_str());
  std::exit(2);
}

// ---- inputs -------------------------------------------------------------------------------

// x(i) = i % 3 - 1 and y(i) = i % 5 - 2: every sum, dot and prefix is a small integer, exact in
// every type and order, with closed forms to check against. (Named functors, not lambdas: nvcc
// allows no extended lambdas in constructors.)
template <class T>
struct FillInputs {
  Kokkos::View<T*, MemorySpace> x, y;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    x(i) = T(i % 3) - T(1);
    y(i) = T(i % 5) - T(2);
  }
};

// Prefix sums of x are -1, -1, 0, -1, -1, 0, ... (inclusive) and 0, -1, -1, 0, ... (exclusive).
template <class T>
struct CountWrongPrefixes {
  Kokkos::View<T*, MemorySpace> out;
  bool exclusive;
  KOKKOS_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    const T expected = exclusive ? (i % 3 == 0 ? T(0) : T(-1)) : (i % 3 == 2 ? T(0) : T(-1));
    count += out(i) != expected;
  }
};

template <class T>
struct Inputs {
  std::int64_t n;
  Kokkos::View<T*, MemorySpace> x, y, out;
  T sum{}, dot{};
  explicit Inputs(std::int64_t size)
      : n(size),
        x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), size),
        y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), size),
        out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), size) {
    Kokkos::parallel_for("kprim-bench::fill", Kokkos::RangePolicy<Space, Index>(0, size), FillInputs<T>{x, y});
    Kokkos::fence();
    sum = size % 3 ? T(-1) : T(0);
    T cycle{};
    for (std::int64_t i = 0; i < 15; ++i) cycle += (T(i % 3) - T(1)) * (T(i % 5) - T(2));
    dot = cycle * T(size / 15);
    for (std::int64_t i = size - size % 15; i < size; ++i) dot += (T(i % 3) - T(1)) * (T(i % 5) - T(2));
  }

  void check_scan(bool exclusive, const std::string& what) const {
    std::int64_t errors = 0;
    Kokkos::parallel_reduce("kprim-bench::check", Kokkos::RangePolicy<Space, Index>(0, n),
                            CountWrongPrefixes<T>{out, exclusive}, errors);
    if (errors) wrong(what + ": " + std::to_string(errors) + " wrong outputs");
  }
};

std::function<void()> release_inputs;  // frees the inputs of the (type, n) that ran last

template <class T>
Inputs<T>& inputs(std::int64_t n) {
  static std::unique_ptr<Inputs<T>> current;
  if (!current || current->n != n) {
    if (release_inputs) release_inputs();
    current = std::make_unique<Inputs<T>>(n);
    release_inputs = [] { current.reset(); };
  }
  return *current;
}

// ---- timing -------------------------------------------------------------------------------

/// Median seconds of fenced calls, one per benchmark iteration, after one warm-up call.
template <class Call>
double time_calls(benchmark::State& state, Call&& call) {
  call();
  Space().fence();
  std::vector<double> seconds;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    call();
    Space().fence();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(elapsed);
    seconds.push_back(elapsed);
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

template <class T>
double measure_copy(std::int64_t n, int repetitions) {
  Inputs<T>& in = inputs<T>(n);
  std::vector<double> seconds;
  for (int i = 0; i < repetitions + 1; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Kokkos::deep_copy(Space(), in.out, in.x);
    Space().fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin() + 1, seconds.end());
  return 2.0 * n * sizeof(T) / seconds[1 + repetitions / 2] / 1e9;
}

template <class T>
void record(benchmark::State& state, const char* primitive, const char* impl, const std::string& algorithm,
            std::int64_t n, double seconds, double bytes) {
  const double gbps = bytes / seconds / 1e9;
  const auto key = std::make_pair(type_name<T>(), n);
  if (std::string(impl) == "copy") copy_gbps[key] = gbps;
  if (!copy_gbps.count(key)) copy_gbps[key] = measure_copy<T>(n, 5);  // copy filtered out: measure it here
  const double pct_copy = 100.0 * gbps / copy_gbps[key];
  state.counters["GB/s"] = gbps;
  state.counters["%copy"] = pct_copy;
  state.counters["median_us"] = seconds * 1e6;
  measurements.push_back({primitive, impl, algorithm, type_name<T>(), n, seconds * 1e6, gbps, pct_copy});
}

/// `automatic` (what users get: the hand-written CUDA path where it exists) and every rung.
std::vector<kprim::ReduceAlgorithm> bench_reduce_algorithms() {
  std::vector<kprim::ReduceAlgorithm> list{kprim::ReduceAlgorithm::automatic};
  list.insert(list.end(), std::begin(kprim::all_reduce_algorithms), std::end(kprim::all_reduce_algorithms));
  return list;
}
std::vector<kprim::ScanAlgorithm> bench_scan_algorithms() {
  std::vector<kprim::ScanAlgorithm> list{kprim::ScanAlgorithm::automatic};
  list.insert(list.end(), std::begin(kprim::all_scan_algorithms), std::end(kprim::all_scan_algorithms));
  return list;
}

// ---- peers --------------------------------------------------------------------------------

template <class T>
struct KokkosSum {
  Kokkos::View<T*, MemorySpace> x;
  KOKKOS_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += x(i); }
};
template <class T>
struct KokkosDot {
  Kokkos::View<T*, MemorySpace> x, y;
  KOKKOS_FUNCTION void operator()(std::int64_t i, T& acc) const { acc += x(i) * y(i); }
};
template <class T>
struct KokkosScan {
  Kokkos::View<T*, MemorySpace> x, out;
  bool exclusive;
  KOKKOS_FUNCTION void operator()(std::int64_t i, T& partial, bool final) const {
    if (final && exclusive) out(i) = partial;
    partial += x(i);
    if (final && !exclusive) out(i) = partial;
  }
};

#ifdef KPRIM_BENCH_CUB
template <class T>
struct CubProduct {
  const T* x;
  const T* y;
  __host__ __device__ T operator()(std::int64_t i) const { return x[i] * y[i]; }
};

/// CUB's temporary storage, sized once outside the timing.
struct CubStorage {
  Kokkos::View<char*, MemorySpace> bytes;
  void reserve(std::size_t size) {
    if (bytes.extent(0) < size) bytes = Kokkos::View<char*, MemorySpace>("cub temp", size);
  }
};

/// cub::DeviceReduce::Sum of an input's x into `result`, its temporary storage sized once.
template <class T>
struct CubSum {
  CubStorage storage;
  std::size_t size = 0;
  CubSum(const Inputs<T>& in, T* result) {
    cub::DeviceReduce::Sum(nullptr, size, in.x.data(), result, in.n);
    storage.reserve(size);
  }
  void operator()(const Inputs<T>& in, T* result) {
    cub::DeviceReduce::Sum(storage.bytes.data(), size, in.x.data(), result, in.n, Space().cuda_stream());
  }
};
#endif

// ---- benchmarks ---------------------------------------------------------------------------

template <class T>
void register_size(std::int64_t n) {
  const std::string suffix = "/" + type_name<T>() + "/" + std::to_string(n);
  const double bytes = double(n) * sizeof(T);
  auto add = [&](const std::string& name, auto body) {
    benchmark::RegisterBenchmark((name + suffix).c_str(), body)
        ->UseManualTime()
        ->Iterations(settings.repetitions)
        ->Unit(benchmark::kMicrosecond);
  };

  add("copy/copy/deep_copy", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    const double s = time_calls(state, [&] { Kokkos::deep_copy(Space(), in.out, in.x); });
    record<T>(state, "copy", "copy", "deep_copy", n, s, 2 * bytes);
  });

  // reduce
  for (const kprim::ReduceAlgorithm algorithm : bench_reduce_algorithms()) {
    add(std::string("reduce/kprim/") + kprim::to_string(algorithm), [n, bytes, algorithm](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      T value{};
      const double s = time_calls(state, [&] { value = kprim::reduce(Space(), in.x, kprim::Sum{}, kprim::any_algorithm({.algorithm = algorithm})); });
      if (value != in.sum) wrong("kprim::reduce" + std::string(kprim::to_string(algorithm)));
      record<T>(state, "reduce", "kprim", kprim::to_string(algorithm), n, s, bytes);
    });
  }
  // Where the value goes, beside `automatic` (value returned to the host): into a rank-0 View in
  // HostSpace (a device-to-host copy enqueued after the kernel) and into one in the space's own
  // memory (no copy: the kernels alone), both timed up to the fence.
  add("reduce/kprim/result_in_host_view", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    T value{};
    const Kokkos::View<T, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> result(&value);
    const double s = time_calls(state, [&] { kprim::reduce(Space(), in.x, result); });
    if (value != in.sum) wrong("kprim::reduce into a host View");
    record<T>(state, "reduce", "kprim", "result_in_host_view", n, s, bytes);
  });
  add("reduce/kprim/result_in_space_view", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    const Kokkos::View<T, MemorySpace> result("result");
    const double s = time_calls(state, [&] { kprim::reduce(Space(), in.x, result); });
    T value{};
    Kokkos::deep_copy(value, result);
    if (value != in.sum) wrong("kprim::reduce into a View in the space's memory");
    record<T>(state, "reduce", "kprim", "result_in_space_view", n, s, bytes);
  });
  // Determinism::bitwise beside the default (issue #8: target <= 1.3x its time at n >= 2^24).
  add("reduce/kprim/bitwise", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    T value{};
    const double s = time_calls(
        state, [&] { value = kprim::reduce(Space(), in.x, kprim::Sum{}, {.determinism = kprim::Determinism::bitwise}); });
    if (value != in.sum) wrong("kprim::reduce bitwise");
    record<T>(state, "reduce", "kprim", "bitwise", n, s, bytes);
  });
  add("reduce/kokkos/parallel_reduce", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    T value{};
    const double s = time_calls(state, [&] {
      Kokkos::parallel_reduce("kokkos_reduce", Kokkos::RangePolicy<Space, Index>(0, n), KokkosSum<T>{in.x}, value);
    });
    if (value != in.sum) wrong("Kokkos::parallel_reduce");
    record<T>(state, "reduce", "kokkos", "parallel_reduce", n, s, bytes);
  });

  // dot
  for (const kprim::ReduceAlgorithm algorithm : bench_reduce_algorithms()) {
    add(std::string("dot/kprim/") + kprim::to_string(algorithm), [n, bytes, algorithm](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      T value{};
      const double s = time_calls(state, [&] { value = kprim::dot(Space(), in.x, in.y, kprim::any_algorithm({.algorithm = algorithm})); });
      if (value != in.dot) wrong("kprim::dot");
      record<T>(state, "dot", "kprim", kprim::to_string(algorithm), n, s, 2 * bytes);
    });
  }
  add("dot/kprim/bitwise", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    T value{};
    const double s =
        time_calls(state, [&] { value = kprim::dot(Space(), in.x, in.y, {.determinism = kprim::Determinism::bitwise}); });
    if (value != in.dot) wrong("kprim::dot bitwise");
    record<T>(state, "dot", "kprim", "bitwise", n, s, 2 * bytes);
  });
  add("dot/kokkos/parallel_reduce", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    T value{};
    const double s = time_calls(state, [&] {
      Kokkos::parallel_reduce("kokkos_dot", Kokkos::RangePolicy<Space, Index>(0, n), KokkosDot<T>{in.x, in.y}, value);
    });
    if (value != in.dot) wrong("Kokkos dot");
    record<T>(state, "dot", "kokkos", "parallel_reduce", n, s, 2 * bytes);
  });

  // scans
  for (const bool exclusive : {false, true}) {
    const char* primitive = exclusive ? "exclusive_scan" : "inclusive_scan";
    for (const kprim::ScanAlgorithm algorithm : bench_scan_algorithms()) {
      add(std::string(primitive) + "/kprim/" + kprim::to_string(algorithm),
          [n, bytes, algorithm, exclusive, primitive](benchmark::State& state) {
            Inputs<T>& in = inputs<T>(n);
            const auto options = kprim::any_algorithm({.algorithm = algorithm});
            const double s = time_calls(state, [&] {
              if (exclusive) kprim::exclusive_scan(Space(), in.x, in.out, T(0), kprim::Sum{}, options);
              else kprim::inclusive_scan(Space(), in.x, in.out, kprim::Sum{}, options);
            });
            in.check_scan(exclusive, std::string("kprim::") + primitive);
            record<T>(state, primitive, "kprim", kprim::to_string(algorithm), n, s, 2 * bytes);
          });
    }
    add(std::string(primitive) + "/kprim/bitwise", [n, bytes, exclusive, primitive](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      const kprim::ScanOptions options{.determinism = kprim::Determinism::bitwise};
      const double s = time_calls(state, [&] {
        if (exclusive) kprim::exclusive_scan(Space(), in.x, in.out, T(0), kprim::Sum{}, options);
        else kprim::inclusive_scan(Space(), in.x, in.out, kprim::Sum{}, options);
      });
      in.check_scan(exclusive, std::string("kprim::") + primitive + " bitwise");
      record<T>(state, primitive, "kprim", "bitwise", n, s, 2 * bytes);
    });
    add(std::string(primitive) + "/kokkos/parallel_scan", [n, bytes, exclusive, primitive](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      const double s = time_calls(state, [&] {
        Kokkos::parallel_scan("kokkos_scan", Kokkos::RangePolicy<Space, Index>(0, n), KokkosScan<T>{in.x, in.out, exclusive});
      });
      in.check_scan(exclusive, std::string("Kokkos::parallel_scan ") + primitive);
      record<T>(state, primitive, "kokkos", "parallel_scan", n, s, 2 * bytes);
    });
  }

#ifdef KPRIM_BENCH_CUB
  // DeviceReduce::Sum with the result in device memory then copied to a host scalar (as CUB is
  // normally used), the result left in device memory (the kernels alone, beside kprim's
  // result_in_space_view), and the result written straight into pinned host memory (what kprim's
  // value-returning reduce does).
  add("reduce/cub/DeviceReduce", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    const Kokkos::View<T, MemorySpace> result("result");
    CubSum<T> sum(in, result.data());
    T value{};
    const double s = time_calls(state, [&] {
      sum(in, result.data());
      Kokkos::deep_copy(Space(), value, result);
    });
    if (value != in.sum) wrong("cub::DeviceReduce::Sum");
    record<T>(state, "reduce", "cub", "DeviceReduce", n, s, bytes);
  });
  add("reduce/cub/result_in_space_view", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    const Kokkos::View<T, MemorySpace> result("result");
    CubSum<T> sum(in, result.data());
    const double s = time_calls(state, [&] { sum(in, result.data()); });
    T value{};
    Kokkos::deep_copy(value, result);
    if (value != in.sum) wrong("cub::DeviceReduce::Sum into device memory");
    record<T>(state, "reduce", "cub", "result_in_space_view", n, s, bytes);
  });
  add("reduce/cub/result_in_pinned_host", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    const Kokkos::View<T, Kokkos::SharedHostPinnedSpace> result("result");
    CubSum<T> sum(in, result.data());
    const double s = time_calls(state, [&] { sum(in, result.data()); });
    if (result() != in.sum) wrong("cub::DeviceReduce::Sum into pinned host memory");
    record<T>(state, "reduce", "cub", "result_in_pinned_host", n, s, bytes);
  });
  add("dot/cub/DeviceReduce", [n, bytes](benchmark::State& state) {
    Inputs<T>& in = inputs<T>(n);
    Kokkos::View<T, MemorySpace> result("result");
    CubStorage storage;
    std::size_t size = 0;
    const thrust::counting_iterator<std::int64_t> index(0);
    const CubProduct<T> product{in.x.data(), in.y.data()};
    cub::DeviceReduce::TransformReduce(nullptr, size, index, result.data(), n, cuda::std::plus<T>{}, product, T(0));
    storage.reserve(size);
    T value{};
    const double s = time_calls(state, [&] {
      cub::DeviceReduce::TransformReduce(storage.bytes.data(), size, index, result.data(), n, cuda::std::plus<T>{},
                                         product, T(0), Space().cuda_stream());
      Kokkos::deep_copy(Space(), value, result);
    });
    if (value != in.dot) wrong("cub::DeviceReduce::TransformReduce");
    record<T>(state, "dot", "cub", "DeviceReduce", n, s, 2 * bytes);
  });
  for (const bool exclusive : {false, true}) {
    const char* primitive = exclusive ? "exclusive_scan" : "inclusive_scan";
    add(std::string(primitive) + "/cub/DeviceScan", [n, bytes, exclusive, primitive](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      CubStorage storage;
      std::size_t size = 0;
      if (exclusive) cub::DeviceScan::ExclusiveSum(nullptr, size, in.x.data(), in.out.data(), n);
      else cub::DeviceScan::InclusiveSum(nullptr, size, in.x.data(), in.out.data(), n);
      storage.reserve(size);
      const double s = time_calls(state, [&] {
        if (exclusive)
          cub::DeviceScan::ExclusiveSum(storage.bytes.data(), size, in.x.data(), in.out.data(), n, Space().cuda_stream());
        else
          cub::DeviceScan::InclusiveSum(storage.bytes.data(), size, in.x.data(), in.out.data(), n, Space().cuda_stream());
      });
      in.check_scan(exclusive, std::string("cub::DeviceScan ") + primitive);
      record<T>(state, primitive, "cub", "DeviceScan", n, s, 2 * bytes);
    });
  }
#endif

#ifdef KPRIM_BENCH_STD_EXECUTION
  if constexpr (host_space) {
    add("reduce/std/par_unseq", [n, bytes](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      T value{};
      const double s = time_calls(state, [&] { value = std::reduce(std::execution::par_unseq, in.x.data(), in.x.data() + n); });
      if (value != in.sum) wrong("std::reduce");
      record<T>(state, "reduce", "std", "par_unseq", n, s, bytes);
    });
    add("dot/std/par_unseq", [n, bytes](benchmark::State& state) {
      Inputs<T>& in = inputs<T>(n);
      T value{};
      const double s = time_calls(state, [&] {
        value = std::transform_reduce(std::execution::par_unseq, in.x.data(), in.x.data() + n, in.y.data(), T(0));
      });
      if (value != in.dot) wrong("std::transform_reduce");
      record<T>(state, "dot", "std", "par_unseq", n, s, 2 * bytes);
    });
    for (const bool exclusive : {false, true}) {
      const char* primitive = exclusive ? "exclusive_scan" : "inclusive_scan";
      add(std::string(primitive) + "/std/par_unseq", [n, bytes, exclusive, primitive](benchmark::State& state) {
        Inputs<T>& in = inputs<T>(n);
        const double s = time_calls(state, [&] {
          if (exclusive) std::exclusive_scan(std::execution::par_unseq, in.x.data(), in.x.data() + n, in.out.data(), T(0));
          else std::inclusive_scan(std::execution::par_unseq, in.x.data(), in.x.data() + n, in.out.data());
        });
        in.check_scan(exclusive, std::string("std::") + primitive);
        record<T>(state, primitive, "std", "par_unseq", n, s, 2 * bytes);
      });
    }
  }
#endif
}

// ---- the calls applications make (issue #21) ------------------------------------------------
// Each row does the same work in kprim, CUB and Kokkos, results in device memory, timed to the
// fence: CRS offsets (int32 counts -> int64 offsets, exclusive, total in the last entry), a float
// scan with a user op, float -> double and int32 -> int64 reduces, a complex<double> sum, and a
// float dot accumulated in double. `primitive` in the summary is app:<name>; the type column is
// the input's; GB/s counts the bytes each call must move.

/// What a user writes for a sum without knowing kprim::Sum (CUB gets the same functor).
struct UserPlus {
  KOKKOS_FUNCTION float operator()(float a, float b) const { return a + b; }
  KOKKOS_FUNCTION float identity() const { return 0.0f; }
};

template <class Acc, class In>
struct KokkosWideSum {
  Kokkos::View<In*, MemorySpace> x;
  KOKKOS_FUNCTION void operator()(std::int64_t i, Acc& acc) const { acc += Acc(x(i)); }
};
template <class Acc, class In>
struct KokkosWideDot {
  Kokkos::View<In*, MemorySpace> x, y;
  KOKKOS_FUNCTION void operator()(std::int64_t i, Acc& acc) const { acc += Acc(x(i)) * Acc(y(i)); }
};
/// Kokkos' CRS offsets: the exclusive scan, and the total after the last element.
struct KokkosOffsets {
  Kokkos::View<std::int32_t*, MemorySpace> counts;
  Kokkos::View<std::int64_t*, MemorySpace> offsets;
  std::int64_t n;
  KOKKOS_FUNCTION void operator()(std::int64_t i, std::int64_t& partial, bool final) const {
    if (final) offsets(i) = partial;
    partial += counts(i);
    if (final && i == n - 1) offsets(n) = partial;
  }
};
template <class T>
struct CountDifferent {
  Kokkos::View<T*, MemorySpace> a, b;
  KOKKOS_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const { count += !(a(i) == b(i)); }
};
template <class T>
std::int64_t count_different(const Kokkos::View<T*, MemorySpace>& a, const Kokkos::View<T*, MemorySpace>& b) {
  std::int64_t count = 0;
  Kokkos::parallel_reduce("kprim-bench::compare", Kokkos::RangePolicy<Space, Index>(0, std::int64_t(a.extent(0))),
                          CountDifferent<T>{a, b}, count);
  return count;
}
template <class T>
T value_of(const Kokkos::View<T, MemorySpace>& v) {
  T value{};
  Kokkos::deep_copy(value, v);
  return value;
}

/// Kokkos' scan of a strided column into a contiguous View.
template <class T>
struct KokkosColumnScan {
  Kokkos::View<T*, Kokkos::LayoutStride, MemorySpace> column;
  Kokkos::View<T*, MemorySpace> out;
  KOKKOS_FUNCTION void operator()(std::int64_t i, T& partial, bool final) const {
    partial += column(i);
    if (final) out(i) = partial;
  }
};

#ifdef KPRIM_BENCH_CUB
/// Element i of a column `stride` elements apart, for CUB's scan over a transform iterator.
template <class T>
struct CubStridedRead {
  const T* data;
  std::int64_t stride;
  __host__ __device__ T operator()(std::int64_t i) const { return data[i * stride]; }
};

template <class Acc, class In>
struct CubWideProduct {
  const In* x;
  const In* y;
  __host__ __device__ Acc operator()(std::int64_t i) const { return Acc(x[i]) * Acc(y[i]); }
};
#endif

void register_app(std::int64_t n) {
  using C = Kokkos::complex<double>;
  const std::string suffix = "/" + std::to_string(n);
  auto add = [&](const std::string& name, const std::string& type, auto body) {
    benchmark::RegisterBenchmark(("app:" + name + "/" + type + suffix).c_str(), body)
        ->UseManualTime()
        ->Iterations(settings.repetitions)
        ->Unit(benchmark::kMicrosecond);
  };
  const double f = double(n) * 4;  // bytes of n floats or int32

  // CRS offsets: n + 1 counts (the last 0) so CUB's ExclusiveSum writes the total into offsets(n).
  auto crs = [n](benchmark::State& state, const char* impl) {
    Inputs<std::int32_t>& in = inputs<std::int32_t>(n + 1);
    Kokkos::deep_copy(Kokkos::subview(in.x, n), 0);
    Kokkos::View<std::int64_t*, MemorySpace> offsets("offsets", n + 1), reference("reference", n + 1);
    const auto counts = Kokkos::subview(in.x, Kokkos::pair<std::int64_t, std::int64_t>(0, n));
    const auto first_n = Kokkos::subview(offsets, Kokkos::pair<std::int64_t, std::int64_t>(0, n));
    Kokkos::parallel_scan("kprim-bench::crs_reference", Kokkos::RangePolicy<Space, Index>(0, n),
                          KokkosOffsets{in.x, reference, n});
    double s = 0;
    if (std::string(impl) == "kprim") {
      s = time_calls(state, [&] {
        kprim::exclusive_scan(Space(), counts, first_n, std::int64_t(0), Kokkos::subview(offsets, n));
      });
#ifdef KPRIM_BENCH_CUB
    } else if (std::string(impl) == "cub") {
      CubStorage storage;
      std::size_t size = 0;
      cub::DeviceScan::ExclusiveSum(nullptr, size, in.x.data(), offsets.data(), n + 1);
      storage.reserve(size);
      s = time_calls(state, [&] {
        cub::DeviceScan::ExclusiveSum(storage.bytes.data(), size, in.x.data(), offsets.data(), n + 1, Space().cuda_stream());
      });
#endif
    } else {
      s = time_calls(state, [&] {
        Kokkos::parallel_scan("kokkos_offsets", Kokkos::RangePolicy<Space, Index>(0, n), KokkosOffsets{in.x, offsets, n});
      });
    }
    if (count_different(offsets, reference)) wrong(std::string("app:crs_offsets ") + impl);
    record<std::int32_t>(state, "app:crs_offsets", impl, "automatic", n, s, double(n) * 4 + double(n + 1) * 8);
  };

  auto user_op_scan = [n](benchmark::State& state, const char* impl) {
    Inputs<float>& in = inputs<float>(n);
    Kokkos::View<float*, MemorySpace> reference("reference", n);
    kprim::inclusive_scan(Space(), in.x, reference);
    double s = 0;
    if (std::string(impl) == "kprim") {
      s = time_calls(state, [&] { kprim::inclusive_scan(Space(), in.x, in.out, UserPlus{}); });
#ifdef KPRIM_BENCH_CUB
    } else {
      CubStorage storage;
      std::size_t size = 0;
      cub::DeviceScan::InclusiveScan(nullptr, size, in.x.data(), in.out.data(), UserPlus{}, n);
      storage.reserve(size);
      s = time_calls(state, [&] {
        cub::DeviceScan::InclusiveScan(storage.bytes.data(), size, in.x.data(), in.out.data(), UserPlus{}, n,
                                       Space().cuda_stream());
      });
#endif
    }
    if (count_different(in.out, reference)) wrong(std::string("app:user_op_scan ") + impl);
    record<float>(state, "app:user_op_scan", impl, "automatic", n, s, 2.0 * n * 4);
  };

  // A scan of a strided column (every other element of an n x 2 LayoutRight View, a LayoutStride
  // subview: a field of an array of structs) into a contiguous View, or (`misaligned`) of a
  // contiguous subview that starts one element past a 16-byte boundary. Neither can move in 16-byte
  // vectors; `strided_copy` (a deep_copy of the same column) is the copy of the same reads.
  auto strided_scan = [n](benchmark::State& state, const char* impl, auto type_tag, bool misaligned) {
    using T = decltype(type_tag);
    Inputs<T>& in = inputs<T>(n);
    const std::int64_t stride = misaligned ? 1 : 2;
    Kokkos::View<T*, MemorySpace> storage("storage", misaligned ? n + 1 : 2 * n);
    const Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace> matrix(storage.data() + (misaligned ? 1 : 0), n, stride);
    const Kokkos::View<T*, Kokkos::LayoutStride, MemorySpace> column = Kokkos::subview(matrix, Kokkos::ALL, 0);
    Kokkos::deep_copy(column, in.x);
    const std::string i = impl;
    const std::string name = misaligned ? "app:misaligned_scan" : "app:strided_scan";
    double s = 0;
    if (i == "kprim") {
      s = time_calls(state, [&] {
        if (misaligned)
          kprim::inclusive_scan(Space(), Kokkos::subview(storage, Kokkos::pair<std::int64_t, std::int64_t>(1, n + 1)), in.out);
        else
          kprim::inclusive_scan(Space(), column, in.out);
      });
    } else if (i == "strided_copy") {
      s = time_calls(state, [&] { Kokkos::deep_copy(Space(), in.out, column); });
#ifdef KPRIM_BENCH_CUB
    } else if (i == "cub") {
      CubStorage cub_storage;
      std::size_t size = 0;
      const auto strided = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                           CubStridedRead<T>{matrix.data(), stride});
      if (misaligned) cub::DeviceScan::InclusiveSum(nullptr, size, matrix.data(), in.out.data(), n);
      else cub::DeviceScan::InclusiveSum(nullptr, size, strided, in.out.data(), n);
      cub_storage.reserve(size);
      s = time_calls(state, [&] {
        if (misaligned)
          cub::DeviceScan::InclusiveSum(cub_storage.bytes.data(), size, matrix.data(), in.out.data(), n, Space().cuda_stream());
        else
          cub::DeviceScan::InclusiveSum(cub_storage.bytes.data(), size, strided, in.out.data(), n, Space().cuda_stream());
      });
#endif
    } else {
      s = time_calls(state, [&] {
        Kokkos::parallel_scan("kokkos_strided_scan", Kokkos::RangePolicy<Space, Index>(0, n),
                              KokkosColumnScan<T>{column, in.out});
      });
    }
    if (i != "strided_copy") in.check_scan(false, name + " " + i);
    record<T>(state, name.c_str(), impl, "automatic", n, s, 2.0 * n * sizeof(T));
  };

  // reduce of In accumulated in Acc (result in device memory); dot: In products in Acc.
  auto wide_reduce = [n](benchmark::State& state, const char* impl, auto in_tag, auto acc_tag, bool dot,
                         const char* name) {
    using In = decltype(in_tag);
    using Acc = decltype(acc_tag);
    Inputs<In>& in = inputs<In>(n);
    const Kokkos::View<Acc, MemorySpace> result("result");
    Acc expected{};
    if (dot)
      Kokkos::parallel_reduce("kprim-bench::reference", Kokkos::RangePolicy<Space, Index>(0, n),
                              KokkosWideDot<Acc, In>{in.x, in.y}, expected);
    else
      Kokkos::parallel_reduce("kprim-bench::reference", Kokkos::RangePolicy<Space, Index>(0, n),
                              KokkosWideSum<Acc, In>{in.x}, expected);
    double s = 0;
    if (std::string(impl) == "kprim") {
      s = time_calls(state, [&] {
        if (dot) kprim::dot(Space(), in.x, in.y, result);
        else kprim::reduce(Space(), in.x, result);
      });
#ifdef KPRIM_BENCH_CUB
    } else if (std::string(impl) == "cub") {
      CubStorage storage;
      std::size_t size = 0;
      const thrust::counting_iterator<std::int64_t> index(0);
      const CubWideProduct<Acc, In> product{in.x.data(), in.y.data()};
      auto run = [&](void* bytes, cudaStream_t stream) {
        if (dot)
          cub::DeviceReduce::TransformReduce(bytes, size, index, result.data(), n, cuda::std::plus<Acc>{}, product,
                                             Acc{}, stream);
        else
          cub::DeviceReduce::Reduce(bytes, size, in.x.data(), result.data(), n, cuda::std::plus<Acc>{}, Acc{}, stream);
      };
      run(nullptr, Space().cuda_stream());
      storage.reserve(size);
      s = time_calls(state, [&] { run(storage.bytes.data(), Space().cuda_stream()); });
#endif
    } else {
      s = time_calls(state, [&] {
        if (dot)
          Kokkos::parallel_reduce("kokkos_dot", Kokkos::RangePolicy<Space, Index>(0, n), KokkosWideDot<Acc, In>{in.x, in.y},
                                  result);
        else
          Kokkos::parallel_reduce("kokkos_reduce", Kokkos::RangePolicy<Space, Index>(0, n), KokkosWideSum<Acc, In>{in.x},
                                  result);
      });
    }
    if (!(value_of(result) == expected)) wrong(std::string(name) + " " + impl);
    record<In>(state, name, impl, "automatic", n, s, (dot ? 2.0 : 1.0) * n * sizeof(In));
  };

  std::vector<const char*> impls{"kprim", "kokkos"};
#ifdef KPRIM_BENCH_CUB
  impls.push_back("cub");
#endif
  add("strided_scan/strided_copy", "float",
      [strided_scan](benchmark::State& state) { strided_scan(state, "strided_copy", float{}, false); });
  for (const char* impl : impls) {
    const std::string i = impl;
    add("crs_offsets/" + i, "int32", [crs, impl](benchmark::State& state) { crs(state, impl); });
    if (i != "kokkos")  // Kokkos' parallel_scan takes no user op
      add("user_op_scan/" + i, "float", [user_op_scan, impl](benchmark::State& state) { user_op_scan(state, impl); });
    add("strided_scan/" + i, "float", [strided_scan, impl](benchmark::State& state) { strided_scan(state, impl, float{}, false); });
    add("strided_scan/" + i, "double", [strided_scan, impl](benchmark::State& state) { strided_scan(state, impl, double{}, false); });
    if (i != "kokkos")  // the same loop as Kokkos' strided scan
      add("misaligned_scan/" + i, "double",
          [strided_scan, impl](benchmark::State& state) { strided_scan(state, impl, double{}, true); });
    add("reduce_f32_f64/" + i, "float", [wide_reduce, impl](benchmark::State& state) {
      wide_reduce(state, impl, float{}, double{}, false, "app:reduce_f32_f64");
    });
    add("reduce_i32_i64/" + i, "int32", [wide_reduce, impl](benchmark::State& state) {
      wide_reduce(state, impl, std::int32_t{}, std::int64_t{}, false, "app:reduce_i32_i64");
    });
    add("complex_sum/" + i, "complex128", [wide_reduce, impl](benchmark::State& state) {
      wide_reduce(state, impl, C{}, C{}, false, "app:complex_sum");
    });
    add("dot_f32_f64/" + i, "float", [wide_reduce, impl](benchmark::State& state) {
      wide_reduce(state, impl, float{}, double{}, true, "app:dot_f32_f64");
    });
  }
  (void)f;
}

// ---- lambdas in, lambdas out (issue #22) ----------------------------------------------------
// The same lambda through kprim, Kokkos and CUB (over a transform iterator, or DeviceSelect::If):
// CRS offsets from a count lambda (int32 degrees read by the lambda, int64 offsets, the total in
// offsets(n)), compaction of floats with a 50% predicate, and a float -> double sum of squares.
// Results stay in device memory; every call is timed to the fence. kprim's CRS row is the callback
// form (exclusive_scan_each); it also runs the count lambda into the offsets View
// (transform_exclusive_scan, algorithm column "transform_scan") and the Kokkos lambda unchanged
// through kprim::parallel_scan ("kokkos_lambda").

void lambda_crs(benchmark::State& state, const std::string& impl, const std::string& algorithm, std::int64_t n) {
  Inputs<std::int32_t>& in = inputs<std::int32_t>(n);  // degrees(i) + 1 in {0, 1, 2}
  const Kokkos::View<std::int32_t*, MemorySpace> degrees = in.x;
  const Kokkos::View<std::int64_t*, MemorySpace> offsets("offsets", n + 1), reference("reference", n + 1);
  const auto policy = Kokkos::RangePolicy<Space, Index>(0, n);
  // The Kokkos scan lambda an application writes for CRS offsets (the total after the last row).
  const auto scan_lambda = KOKKOS_LAMBDA(std::int64_t i, std::int64_t& partial, bool final) {
    if (final) offsets(i) = partial;
    partial += degrees(i) + 1;
    if (final && i == n - 1) offsets(n) = partial;
  };
  Kokkos::parallel_scan("kprim-bench::crs_reference", policy, scan_lambda);
  Kokkos::deep_copy(reference, offsets);
  Kokkos::deep_copy(offsets, -1);
  const auto count = KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(degrees(i) + 1); };
  const auto write = KOKKOS_LAMBDA(std::int64_t i, std::int64_t prefix) { offsets(i) = prefix; };
  double s = 0;
  if (impl == "kprim" && algorithm == "kokkos_lambda") {
    s = time_calls(state, [&] { kprim::parallel_scan("crs", policy, scan_lambda); });
  } else if (impl == "kprim" && algorithm == "transform_scan") {
    const auto rows = Kokkos::subview(offsets, Kokkos::make_pair(std::int64_t(0), n));
    s = time_calls(state, [&] {
      kprim::transform_exclusive_scan(Space(), n, count, rows, std::int64_t(0), Kokkos::subview(offsets, n));
    });
  } else if (impl == "kprim") {
    s = time_calls(state, [&] {
      kprim::exclusive_scan_each(Space(), n, count, write, std::int64_t(0), Kokkos::subview(offsets, n));
    });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {
    const std::int32_t* data = degrees.data();
    const auto row_count = [=] __host__ __device__(std::int64_t i) -> std::int64_t { return i < n ? data[i] + 1 : 0; };
    const auto counts = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), row_count);
    CubStorage storage;
    std::size_t size = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, size, counts, offsets.data(), n + 1);
    storage.reserve(size);
    s = time_calls(state, [&] {
      cub::DeviceScan::ExclusiveSum(storage.bytes.data(), size, counts, offsets.data(), n + 1, Space().cuda_stream());
    });
#endif
  } else {
    s = time_calls(state, [&] { Kokkos::parallel_scan("kokkos_crs", policy, scan_lambda); });
  }
  if (count_different(offsets, reference)) wrong("app:crs_from_lambda " + impl + " " + algorithm);
  record<std::int32_t>(state, "app:crs_from_lambda", impl.c_str(), algorithm, n, s, double(n) * 4 + double(n + 1) * 8);
}

/// x(i) = +1 or -1 from a hash of i: half the elements pass `v > 0`, scattered.
struct FillSigns {
  Kokkos::View<float*, MemorySpace> x;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    x(i) = (((std::uint64_t(i) * 0x9E3779B97F4A7C15ull) >> 40) & 1) ? 1.0f + float(i % 7) : -1.0f;
  }
};

void lambda_copy_if(benchmark::State& state, const std::string& impl, std::int64_t n) {
  Inputs<float>& in = inputs<float>(n);
  const Kokkos::View<float*, MemorySpace> x = in.y, out = in.out;
  Kokkos::parallel_for("kprim-bench::signs", Kokkos::RangePolicy<Space, Index>(0, n), FillSigns{x});
  const Kokkos::View<float*, MemorySpace> reference("reference", n);
  const Kokkos::View<std::int64_t, MemorySpace> count("count");
  const auto positive = KOKKOS_LAMBDA(float v) { return v > 0.0f; };
  const std::int64_t expected = kprim::copy_if(Space(), x, reference, positive);
  double s = 0;
  if (impl == "kprim") {
    s = time_calls(state, [&] { kprim::copy_if(Space(), x, out, count, positive); });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {
    CubStorage storage;
    std::size_t size = 0;
    cub::DeviceSelect::If(nullptr, size, x.data(), out.data(), count.data(), n, positive);
    storage.reserve(size);
    s = time_calls(state, [&] {
      cub::DeviceSelect::If(storage.bytes.data(), size, x.data(), out.data(), count.data(), n, positive,
                            Space().cuda_stream());
    });
#endif
  } else {
    const auto select = KOKKOS_LAMBDA(std::int64_t i, std::int64_t& partial, bool final) {
      const float v = x(i);
      if (v > 0.0f) {
        if (final) out(partial) = v;
        partial += 1;
      }
      if (final && i == n - 1) count() = partial;
    };
    s = time_calls(state, [&] { Kokkos::parallel_scan("kokkos_copy_if", Kokkos::RangePolicy<Space, Index>(0, n), select); });
  }
  if (value_of(count) != expected ||
      count_different(Kokkos::View<float*, MemorySpace>(out.data(), expected),
                      Kokkos::View<float*, MemorySpace>(reference.data(), expected)))
    wrong("app:copy_if " + impl);
  record<float>(state, "app:copy_if", impl.c_str(), "automatic", n, s, double(n) * 4 + double(expected) * 4);
}

void lambda_transform_reduce(benchmark::State& state, const std::string& impl, std::int64_t n) {
  Inputs<float>& in = inputs<float>(n);
  const Kokkos::View<float*, MemorySpace> x = in.x;
  const Kokkos::View<double, MemorySpace> result("result");
  const auto square = KOKKOS_LAMBDA(std::int64_t i) {
    const double v = x(i);
    return v * v;
  };
  const double expected = double(n - (n + 1) / 3);  // x(i) = i % 3 - 1: squares 1, 0, 1, 1, 0, 1, ...
  double s = 0;
  if (impl == "kprim") {
    s = time_calls(state, [&] { kprim::transform_reduce(Space(), n, square, result); });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {
    CubStorage storage;
    std::size_t size = 0;
    const thrust::counting_iterator<std::int64_t> index(0);
    cub::DeviceReduce::TransformReduce(nullptr, size, index, result.data(), n, cuda::std::plus<double>{}, square, 0.0);
    storage.reserve(size);
    s = time_calls(state, [&] {
      cub::DeviceReduce::TransformReduce(storage.bytes.data(), size, index, result.data(), n, cuda::std::plus<double>{},
                                         square, 0.0, Space().cuda_stream());
    });
#endif
  } else {
    const auto body = KOKKOS_LAMBDA(std::int64_t i, double& acc) {
      const double v = x(i);
      acc += v * v;
    };
    s = time_calls(state, [&] {
      Kokkos::parallel_reduce("kokkos_transform_reduce", Kokkos::RangePolicy<Space, Index>(0, n), body, result);
    });
  }
  if (value_of(result) != expected) wrong("app:transform_reduce " + impl);
  record<float>(state, "app:transform_reduce", impl.c_str(), "automatic", n, s, double(n) * 4);
}

void register_lambdas(std::int64_t n) {
  const std::string suffix = "/" + std::to_string(n);
  auto add = [&](const std::string& name, const std::string& type, auto body) {
    benchmark::RegisterBenchmark(("app:" + name + "/" + type + suffix).c_str(), body)
        ->UseManualTime()
        ->Iterations(settings.repetitions)
        ->Unit(benchmark::kMicrosecond);
  };
  std::vector<std::string> impls{"kprim", "kokkos"};
#ifdef KPRIM_BENCH_CUB
  impls.push_back("cub");
#endif
  for (const std::string& impl : impls) {
    add("crs_from_lambda/" + impl, "int32", [impl, n](benchmark::State& state) { lambda_crs(state, impl, "automatic", n); });
    if (impl == "kprim")
      for (const std::string algorithm : {"transform_scan", "kokkos_lambda"})
        add("crs_from_lambda/kprim_" + algorithm, "int32",
            [n, algorithm](benchmark::State& state) { lambda_crs(state, "kprim", algorithm, n); });
    add("copy_if/" + impl, "float", [impl, n](benchmark::State& state) { lambda_copy_if(state, impl, n); });
    add("transform_reduce/" + impl, "float",
        [impl, n](benchmark::State& state) { lambda_transform_reduce(state, impl, n); });
  }
}

// ---- the team level (issue #26) --------------------------------------------------------------
// app:team_scan: inside a user's TeamPolicy kernel each team (256 threads on devices, the space's
// largest team up to 256 on hosts) scans its own 4096 floats: kprim::team::inclusive_scan against
// Kokkos' parallel_scan over a TeamThreadRange doing the same work. GB/s: n reads + n writes.
struct NoTeamWork {  // at namespace scope: nvcc cannot launch local classes
  KOKKOS_FUNCTION void operator()(const Kokkos::TeamPolicy<Space>::member_type&) const {}
};

#ifdef KPRIM_BENCH_CUB
/// CUB's equivalent: one block of Threads per 4096 elements, BlockLoad (warp transpose), BlockScan
/// over accumulators T, BlockStore.
template <int Threads, class In, class T, class Op>
__global__ void cub_block_scan(const In* x, T* out, Op op) {
  constexpr int items = 4096 / Threads;
  using Load = cub::BlockLoad<In, Threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, Threads>;
  using Store = cub::BlockStore<T, Threads, items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  In loaded[items];
  T values[items];
  const std::int64_t first = std::int64_t(blockIdx.x) * 4096;
  Load(temp.load).Load(x + first, loaded);
#pragma unroll
  for (int k = 0; k < items; ++k) values[k] = T(loaded[k]);
  __syncthreads();
  Scan(temp.scan).InclusiveScan(values, values, op);
  __syncthreads();
  Store(temp.store).Store(out + first, values);
}
#endif

/// One app:team_scan row: In elements read (through a lambda, from a contiguous View or, with
/// `strided`, from every other element of one), scanned in accumulators T with Op, T written.
template <class In, class T, class Op, bool Strided = false>
void team_scan(benchmark::State& state, const std::string& impl, const std::string& variant, std::int64_t n) {
  using policy = Kokkos::TeamPolicy<Space>;
  constexpr std::int64_t per_team = 4096;
  const int league = int(n / per_team);
  const int team = std::min(256, policy(Space(), 1, 1).team_size_max(NoTeamWork{}, Kokkos::ParallelForTag{}));
  Inputs<In>& in = inputs<In>(n);
  Kokkos::View<In**, Kokkos::LayoutRight, MemorySpace> pairs;
  std::conditional_t<Strided, Kokkos::View<In*, Kokkos::LayoutStride, MemorySpace>, Kokkos::View<In*, MemorySpace>> x;
  if constexpr (Strided) {  // the same values in column 0 of an n x 2 array
    pairs = Kokkos::View<In**, Kokkos::LayoutRight, MemorySpace>("pairs", n, 2);
    x = Kokkos::subview(pairs, Kokkos::ALL, 0);
    Kokkos::deep_copy(x, in.x);
  } else {
    x = in.x;
  }
  const Kokkos::View<T*, MemorySpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "team_out"), n);
  const auto host_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, in.x);
  Kokkos::View<T*, Kokkos::HostSpace> host_reference("reference", n);
  const Op op;
  for (std::int64_t first = 0; first < n; first += per_team) {
    T running = kprim::identity_of<T>(op);
    for (std::int64_t i = first; i < first + per_team; ++i) host_reference(i) = running = op(running, T(host_x(i)));
  }
  const Kokkos::View<T*, MemorySpace> reference("reference", n);
  Kokkos::deep_copy(reference, host_reference);
  double s = 0;
  if (impl == "kprim") {
    const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
      const kprim::team::Workspace<T> workspace(member);
      const std::int64_t first = member.league_rank() * per_team;
      kprim::team::inclusive_scan(member, workspace, per_team, [&](std::int64_t i) { return T(x(first + i)); },
                                  [&](std::int64_t i, const T& prefix) { out(first + i) = prefix; }, op);
    };
    const auto launch = policy(Space(), league, team).set_scratch_size(0, Kokkos::PerTeam(kprim::team::scratch_bytes<T>(team)));
    s = time_calls(state, [&] { Kokkos::parallel_for("kprim_team_scan", launch, kernel); });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {
    s = time_calls(state, [&] {
      cub_block_scan<256><<<league, 256, 0, Space().cuda_stream()>>>(in.x.data(), out.data(), op);
    });
#endif
  } else {
    const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
      const std::int64_t first = member.league_rank() * per_team;
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, per_team), [&](std::int64_t i, T& partial, bool final) {
        partial += T(x(first + i));
        if (final) out(first + i) = partial;
      });
    };
    s = time_calls(state, [&] { Kokkos::parallel_for("kokkos_team_scan", policy(Space(), league, team), kernel); });
  }
  if (count_different(out, reference)) wrong("app:team_scan " + impl + " " + variant);
  record<In>(state, "app:team_scan", impl.c_str(), variant, n, s, double(n) * (sizeof(In) + sizeof(T)));
}

void register_team(std::int64_t n) {
  if (n % 4096 != 0) return;
  std::vector<std::string> impls{"kprim", "kokkos"};
#ifdef KPRIM_BENCH_CUB
  impls.push_back("cub");
#endif
  auto add = [n](const std::string& impl, const std::string& variant, auto body) {
    benchmark::RegisterBenchmark(("app:team_scan/" + impl + "/" + variant + "/" + std::to_string(n)).c_str(),
                                 [impl, variant, body](benchmark::State& state) { body(state, impl, variant); })
        ->UseManualTime()
        ->Iterations(settings.repetitions)
        ->Unit(benchmark::kMicrosecond);
  };
  // The plain call and an application's: int32 counts into int64 offsets, a user op (Kokkos'
  // TeamThreadRange scan sums only), a strided column (CUB's BlockLoad wants contiguous data).
  for (const std::string& impl : impls) {
    add(impl, "float", [n](benchmark::State& st, const std::string& i, const std::string&) {
      team_scan<float, float, kprim::Sum>(st, i, "automatic", n);
    });
    add(impl, "int32_to_int64", [n](benchmark::State& st, const std::string& i, const std::string& v) {
      team_scan<std::int32_t, std::int64_t, kprim::Sum>(st, i, v, n);
    });
    if (impl != "kokkos")
      add(impl, "user_op_float", [n](benchmark::State& st, const std::string& i, const std::string& v) {
        team_scan<float, float, UserPlus>(st, i, v, n);
      });
    if (impl != "cub")
      add(impl, "strided_float", [n](benchmark::State& st, const std::string& i, const std::string& v) {
        team_scan<float, float, kprim::Sum, true>(st, i, v, n);
      });
  }
}

// ---- segmented reduce and scan (issue #26) ---------------------------------------------------
// app:segmented_reduce / app:segmented_scan over n floats in CSR segments, the segment-length mix
// in the `algorithm` column: lengths uniform in 1-32, 500-1500 ("1000"), 0.5-1.5 million ("1e6"),
// and a power law (most segments short, a few of up to n/4; "power"). Peers: Kokkos' natural
// form (a team per segment, parallel_reduce / parallel_scan over its TeamThreadRange) and CUB
// (DeviceSegmentedReduce::Sum; DeviceScan::InclusiveSumByKey on a segment-id key per element, the
// scan-by-key users write without a segmented scan, its keys built outside the timing). GB/s:
// the ideal traffic (reduce: n values and S + 1 offsets read, S sums written; scan: n read, n
// written), so CUB's key reads are not counted. kprim_lambda: the same sums with the op as a
// lambda (no identity(); the reduce from init 0), as a user's call often is; *_double: the sums
// accumulated and written in double (segmented_reduce_in_double), GB/s still counting floats out.
struct SegmentLayout {
  std::vector<std::int64_t> offsets;
};

SegmentLayout segment_layout(const std::string& mix, std::int64_t n) {
  std::mt19937_64 rng(20261126);
  SegmentLayout layout{{0}};
  while (layout.offsets.back() < n) {
    std::int64_t length = 1;
    if (mix == "1-32") length = 1 + std::int64_t(rng() % 32);
    else if (mix == "1000") length = 500 + std::int64_t(rng() % 1001);
    else if (mix == "1e6") length = 500'000 + std::int64_t(rng() % 1'000'001);
    else length = std::min<std::int64_t>(n / 4, std::int64_t(std::pow(double(rng() % 1'000'000 + 1) / 1e6, -1.2)));
    layout.offsets.push_back(std::min(n, layout.offsets.back() + std::max<std::int64_t>(length, 1)));
  }
  return layout;
}

/// The segmented sums of floats accumulated in double, as an application wanting a wider
/// accumulator calls it: kprim with the built-in Sum into double sums (kprim_double) and with a
/// lambda on doubles (the reduce from init 0, folded in order), Kokkos' team per segment with a
/// double sum, CUB's DeviceSegmentedReduce::Reduce with plus<double>. Stored back as float into
/// `sums` for the check (the sums are small integers).
double segmented_reduce_in_double(benchmark::State& state, const std::string& impl,
                                  const Kokkos::View<float*, MemorySpace>& x,
                                  const Kokkos::View<std::int64_t*, MemorySpace>& offsets, std::int64_t segments,
                                  const Kokkos::View<float*, MemorySpace>& sums) {
  using policy = Kokkos::TeamPolicy<Space>;
  const Kokkos::View<double*, MemorySpace> wide("wide sums", segments);
  double s = 0;
  if (impl == "kprim_lambda_double") {
    const auto plus = KOKKOS_LAMBDA(double a, double b) { return a + b; };
    s = time_calls(state, [&] { kprim::segmented_reduce(Space(), x, offsets, wide, 0.0, plus); });
  } else if (impl == "kprim_double") {  // the built-in Sum into double sums
    s = time_calls(state, [&] { kprim::segmented_reduce(Space(), x, offsets, wide); });
  } else if (impl == "kokkos_double") {
    const auto kernel = KOKKOS_LAMBDA(const policy::member_type& member) {
      const std::int64_t k = member.league_rank();
      double sum = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(member, offsets(k), offsets(k + 1)),
                              [&](std::int64_t i, double& partial) { partial += x(i); }, sum);
      Kokkos::single(Kokkos::PerTeam(member), [&] { wide(k) = sum; });
    };
    s = time_calls(state, [&] {
      Kokkos::parallel_for("kokkos_segmented_reduce_double", policy(Space(), segments, Kokkos::AUTO), kernel);
    });
#ifdef KPRIM_BENCH_CUB
  } else {
    CubStorage storage;
    std::size_t size = 0;
    cub::DeviceSegmentedReduce::Reduce(nullptr, size, x.data(), wide.data(), segments, offsets.data(),
                                       offsets.data() + 1, cuda::std::plus<double>{}, 0.0);
    storage.reserve(size);
    s = time_calls(state, [&] {
      cub::DeviceSegmentedReduce::Reduce(storage.bytes.data(), size, x.data(), wide.data(), segments, offsets.data(),
                                         offsets.data() + 1, cuda::std::plus<double>{}, 0.0, Space().cuda_stream());
    });
#endif
  }
  Kokkos::parallel_for("kprim-bench::narrow", Kokkos::RangePolicy<Space>(0, segments),
                       KOKKOS_LAMBDA(std::int64_t k) { sums(k) = float(wide(k)); });
  return s;
}

#ifdef KPRIM_BENCH_CUB
/// Each element's segment index: the keys of CUB's scans by key, the peer of a segmented scan.
Kokkos::View<std::int32_t*, MemorySpace> segment_keys(const Kokkos::View<std::int64_t*, MemorySpace>& offsets,
                                                     std::int64_t segments, std::int64_t n) {
  const Kokkos::View<std::int32_t*, MemorySpace> keys("keys", n);
  using policy = Kokkos::TeamPolicy<Space>;
  Kokkos::parallel_for("kprim-bench::keys", policy(segments, Kokkos::AUTO), KOKKOS_LAMBDA(const policy::member_type& member) {
    const std::int64_t k = member.league_rank();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, offsets(k), offsets(k + 1)),
                         [&](std::int64_t i) { keys(i) = std::int32_t(k); });
  });
  return keys;
}
#endif

void segmented(benchmark::State& state, bool scan, const std::string& impl, const std::string& mix, std::int64_t n) {
  using policy = Kokkos::TeamPolicy<Space>;
  Inputs<float>& in = inputs<float>(n);
  const Kokkos::View<float*, MemorySpace> x = in.x, out = in.out;
  const SegmentLayout layout = segment_layout(mix, n);
  const std::int64_t segments = std::int64_t(layout.offsets.size()) - 1;
  const Kokkos::View<std::int64_t*, MemorySpace> offsets("offsets", segments + 1);
  Kokkos::deep_copy(offsets, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                 layout.offsets.data(), layout.offsets.size()));
  const Kokkos::View<float*, MemorySpace> sums("sums", segments);
  // The answers: x cycles through -1, 0, 1, so every partial sum is exact in float.
  const auto host_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, x);
  Kokkos::View<float*, Kokkos::HostSpace> host_reference("reference", scan ? n : segments);
  for (std::int64_t s = 0; s < segments; ++s) {
    float running = 0;
    for (std::int64_t i = layout.offsets[s]; i < layout.offsets[s + 1]; ++i) {
      running += host_x(i);
      if (scan) host_reference(i) = running;
    }
    if (!scan) host_reference(s) = running;
  }
  const Kokkos::View<float*, MemorySpace> reference("reference", host_reference.extent(0));
  Kokkos::deep_copy(reference, host_reference);
  double s = 0;
  if (impl == "kprim") {
    s = time_calls(state, [&] {
      if (scan) kprim::segmented_inclusive_scan(Space(), x, offsets, out);
      else kprim::segmented_reduce(Space(), x, offsets, sums);
    });
  } else if (impl == "kprim_lambda") {  // the user's op as a lambda (no identity: the reduce from init)
    const auto plus = KOKKOS_LAMBDA(float a, float b) { return a + b; };
    s = time_calls(state, [&] {
      if (scan) kprim::segmented_inclusive_scan(Space(), x, offsets, out, plus);
      else kprim::segmented_reduce(Space(), x, offsets, sums, 0.0f, plus);
    });
  } else if (impl.ends_with("_double")) {
    s = segmented_reduce_in_double(state, impl, x, offsets, segments, sums);
  } else if (impl == "kprim_pairs") {  // the two device paths of the reduce, whatever the mean length
    s = time_calls(state, [&] {
      kprim::impl::segments::paired_reduce("bench", Space(), x, offsets, sums,
                                           kprim::impl::segments::totals_of<float>(kprim::Sum{}), kprim::ScanOptions{});
    });
  } else if (impl == "kprim_chunks") {
    s = time_calls(state, [&] {
      kprim::impl::segments::chunked_reduce("bench", Space(), x, offsets, sums,
                                            kprim::impl::segments::totals_of<float>(kprim::Sum{}));
    });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {
    CubStorage storage;
    std::size_t size = 0;
    if (scan) {
      const auto keys = segment_keys(offsets, segments, n);
      cub::DeviceScan::InclusiveSumByKey(nullptr, size, keys.data(), x.data(), out.data(), n);
      storage.reserve(size);
      s = time_calls(state, [&] {
        cub::DeviceScan::InclusiveSumByKey(storage.bytes.data(), size, keys.data(), x.data(), out.data(), n,
                                           cuda::std::equal_to<std::int32_t>{}, Space().cuda_stream());
      });
    } else {
      cub::DeviceSegmentedReduce::Sum(nullptr, size, x.data(), sums.data(), segments, offsets.data(),
                                      offsets.data() + 1);
      storage.reserve(size);
      s = time_calls(state, [&] {
        cub::DeviceSegmentedReduce::Sum(storage.bytes.data(), size, x.data(), sums.data(), segments, offsets.data(),
                                        offsets.data() + 1, Space().cuda_stream());
      });
    }
#endif
  } else if (scan) {
    const auto kernel = KOKKOS_LAMBDA(const policy::member_type& member) {
      const std::int64_t first = offsets(member.league_rank()), last = offsets(member.league_rank() + 1);
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, first, last), [&](std::int64_t i, float& partial, bool final) {
        partial += x(i);
        if (final) out(i) = partial;
      });
    };
    s = time_calls(state, [&] { Kokkos::parallel_for("kokkos_segmented_scan", policy(Space(), segments, Kokkos::AUTO), kernel); });
  } else {
    const auto kernel = KOKKOS_LAMBDA(const policy::member_type& member) {
      const std::int64_t k = member.league_rank();
      float sum = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(member, offsets(k), offsets(k + 1)),
                              [&](std::int64_t i, float& partial) { partial += x(i); }, sum);
      Kokkos::single(Kokkos::PerTeam(member), [&] { sums(k) = sum; });
    };
    s = time_calls(state, [&] { Kokkos::parallel_for("kokkos_segmented_reduce", policy(Space(), segments, Kokkos::AUTO), kernel); });
  }
  const char* primitive = scan ? "app:segmented_scan" : "app:segmented_reduce";
  if (count_different(scan ? out : sums, reference)) wrong(std::string(primitive) + " " + impl + " " + mix);
  const double bytes = scan ? 2.0 * n * 4 : double(n) * 4 + double(segments + 1) * 8 + double(segments) * 4;
  record<float>(state, primitive, impl.c_str(), mix, n, s, bytes);
}

/// The segmented scan on an application's calls, segments of the ~1000 mix: int32 counts into
/// int64 offsets restarting per segment (exclusive), floats read from a strided column,
/// fixed-size segments of 1000 floats (and of 10^6: whole tiles without a head, as the 1e6 mix's,
/// with no offsets to read), the same fixed layouts given as CSR offsets (csr_fixed_*: what the
/// offsets cost against the same segments), an exclusive float scan, and double scans (inclusive,
/// fixed-size, exclusive, strided). Peers: Kokkos' team per segment doing the same work, and CUB's
/// scan by key on each element's segment index (contiguous input of the output's type).
template <class In, class T, bool Exclusive, bool Strided, std::int64_t FixedSize,
          bool FixedAsOffsets = false>  // FixedSize 0: the ~1000 mix's CSR offsets
void segmented_scan_call(benchmark::State& state, const std::string& impl, const std::string& variant, std::int64_t n) {
  using policy = Kokkos::TeamPolicy<Space>;
  constexpr bool Fixed = FixedSize > 0 && !FixedAsOffsets;
  Inputs<In>& in = inputs<In>(n);
  Kokkos::View<In**, Kokkos::LayoutRight, MemorySpace> pairs;
  std::conditional_t<Strided, Kokkos::View<In*, Kokkos::LayoutStride, MemorySpace>, Kokkos::View<In*, MemorySpace>> x;
  if constexpr (Strided) {
    pairs = Kokkos::View<In**, Kokkos::LayoutRight, MemorySpace>("pairs", n, 2);
    x = Kokkos::subview(pairs, Kokkos::ALL, 0);
    Kokkos::deep_copy(x, in.x);
  } else {
    x = in.x;
  }
  SegmentLayout layout;
  if constexpr (FixedSize > 0) {
    layout.offsets.push_back(0);
    while (layout.offsets.back() < n) layout.offsets.push_back(std::min(n, layout.offsets.back() + FixedSize));
  } else {
    layout = segment_layout("1000", n);
  }
  const std::int64_t segments = std::int64_t(layout.offsets.size()) - 1;
  const Kokkos::View<std::int64_t*, MemorySpace> offsets("offsets", segments + 1);
  Kokkos::deep_copy(offsets, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                 layout.offsets.data(), layout.offsets.size()));
  const Kokkos::View<T*, MemorySpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "segmented_out"), n);
  const auto host_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, in.x);
  Kokkos::View<T*, Kokkos::HostSpace> host_reference("reference", n);
  for (std::int64_t s = 0; s < segments; ++s) {
    T running = 0;
    for (std::int64_t i = layout.offsets[s]; i < layout.offsets[s + 1]; ++i) {
      if (Exclusive) host_reference(i) = running;
      running += T(host_x(i));
      if (!Exclusive) host_reference(i) = running;
    }
  }
  const Kokkos::View<T*, MemorySpace> reference("reference", n);
  Kokkos::deep_copy(reference, host_reference);
  double s = 0;
  if (impl == "kprim") {
    s = time_calls(state, [&] {
      if constexpr (Fixed) kprim::segmented_inclusive_scan(Space(), x, FixedSize, out);
      else if constexpr (Exclusive) kprim::segmented_exclusive_scan(Space(), x, offsets, out, T(0));
      else kprim::segmented_inclusive_scan(Space(), x, offsets, out);
    });
#ifdef KPRIM_BENCH_CUB
  } else if (impl == "cub") {  // by key on each element's segment index (registered for contiguous In == T)
    if constexpr (!Strided && std::is_same_v<In, T>) {
      const auto keys = segment_keys(offsets, segments, n);
      CubStorage storage;
      std::size_t size = 0;
      const auto scan_by_key = [&](void* bytes) {
        if constexpr (Exclusive)
          cub::DeviceScan::ExclusiveSumByKey(bytes, size, keys.data(), x.data(), out.data(), n,
                                             cuda::std::equal_to<std::int32_t>{}, Space().cuda_stream());
        else
          cub::DeviceScan::InclusiveSumByKey(bytes, size, keys.data(), x.data(), out.data(), n,
                                             cuda::std::equal_to<std::int32_t>{}, Space().cuda_stream());
      };
      scan_by_key(nullptr);
      storage.reserve(size);
      s = time_calls(state, [&] { scan_by_key(storage.bytes.data()); });
    }
#endif
  } else {
    const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
      const std::int64_t first = offsets(member.league_rank()), last = offsets(member.league_rank() + 1);
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, first, last), [&](std::int64_t i, T& partial, bool final) {
        if (final && Exclusive) out(i) = partial;
        partial += T(x(i));
        if (final && !Exclusive) out(i) = partial;
      });
    };
    s = time_calls(state, [&] {
      Kokkos::parallel_for("kokkos_segmented_scan", policy(Space(), segments, Kokkos::AUTO), kernel);
    });
  }
  if (count_different(out, reference)) wrong("app:segmented_scan " + impl + " " + variant);
  record<In>(state, "app:segmented_scan", impl.c_str(), variant, n, s, double(n) * (sizeof(In) + sizeof(T)));
}

void register_segmented(std::int64_t n) {
  std::vector<std::string> impls{"kprim", "kprim_lambda", "kokkos"};
#ifdef KPRIM_BENCH_CUB
  impls.push_back("cub");
#endif
  for (const bool scan : {false, true})
    for (const std::string mix : {"1-32", "1000", "1e6", "power"}) {
      if (mix == "1e6" && n < (std::int64_t(1) << 22)) continue;  // a few segments at least
      std::vector<std::string> row_impls = impls;
      if (!scan) row_impls.insert(row_impls.end(), {"kprim_double", "kprim_lambda_double", "kokkos_double"});
#ifdef KPRIM_BENCH_CUB
      if (!scan) row_impls.push_back("cub_double");
#endif
      if (!scan && !Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible)
        row_impls.insert(row_impls.end(), {"kprim_pairs", "kprim_chunks"});
      for (const std::string& impl : row_impls)
        benchmark::RegisterBenchmark(((scan ? "app:segmented_scan/" : "app:segmented_reduce/") + impl + "/" + mix +
                                      "/float/" + std::to_string(n)).c_str(),
                                     [scan, impl, mix, n](benchmark::State& state) { segmented(state, scan, impl, mix, n); })
            ->UseManualTime()
            ->Iterations(settings.repetitions)
            ->Unit(benchmark::kMicrosecond);
    }
  std::vector<std::string> call_impls{"kprim", "kokkos"};
#ifdef KPRIM_BENCH_CUB
  call_impls.push_back("cub");
#endif
  for (const std::string& impl : call_impls) {
    // CUB's peer scans by key: contiguous input of the output's type.
    auto add = [&](const std::string& variant, const std::string& type, auto body, bool cub_peer = true) {
      if (impl == "cub" && !cub_peer) return;
      benchmark::RegisterBenchmark(("app:segmented_scan/" + impl + "/" + variant + "/" + type + "/" + std::to_string(n)).c_str(),
                                   [impl, variant, n, body](benchmark::State& state) { body(state, impl, variant, n); })
          ->UseManualTime()
          ->Iterations(settings.repetitions)
          ->Unit(benchmark::kMicrosecond);
    };
    add("1000_int32_to_int64_exclusive", "int32", segmented_scan_call<std::int32_t, std::int64_t, true, false, 0>,
        false);
    add("1000_strided", "float", segmented_scan_call<float, float, false, true, 0>, false);
    add("fixed_1000", "float", segmented_scan_call<float, float, false, false, 1000>);
    if (n >= (std::int64_t(1) << 22))  // segments of 10^6 elements: tiles without heads, no offsets to read
      add("fixed_1e6", "float", segmented_scan_call<float, float, false, false, 1'000'000>);
    add("csr_fixed_1000", "float", segmented_scan_call<float, float, false, false, 1000, true>);
    if (n >= (std::int64_t(1) << 22))
      add("csr_fixed_1e6", "float", segmented_scan_call<float, float, false, false, 1'000'000, true>);
    add("1000_exclusive", "float", segmented_scan_call<float, float, true, false, 0>);
    add("1000_double", "double", segmented_scan_call<double, double, false, false, 0>);
    add("fixed_1000_double", "double", segmented_scan_call<double, double, false, false, 1000>);
    add("1000_exclusive_double", "double", segmented_scan_call<double, double, true, false, 0>);
    add("1000_strided_double", "double", segmented_scan_call<double, double, false, true, 0>, false);
  }
}

// ---- profiling regions with no tool loaded (issue #23) -------------------------------------
// Every kprim call opens a Kokkos Tools region named after its function and path
// (impl::PathRegion); with no tool loaded that costs one query of Kokkos' tool state. Timed on
// its own (batches of 1000 regions) beside the call it must stay invisible in: a float reduce
// of 2^16, the smallest call whose cost is the kernel's, timed in the same benchmark.
void register_tools_cost() {
  benchmark::RegisterBenchmark("tools:no_tool_region/float/65536", [](benchmark::State& state) {
    constexpr int batch = 1000;
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < batch; ++i) kprim::impl::detail::PathRegion region("kprim::reduce", "bench");
      state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / batch);
    }
    std::vector<double> region_s, reduce_s;
    const std::int64_t n = 1 << 16;
    Inputs<float>& in = inputs<float>(n);
    float value = 0;
    for (int r = 0; r < 50; ++r) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < batch; ++i) kprim::impl::detail::PathRegion region("kprim::reduce", "bench");
      region_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / batch);
      start = std::chrono::steady_clock::now();
      value = kprim::reduce(Space(), in.x);
      reduce_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (value != in.sum) wrong("kprim::reduce (tools cost)");
    std::sort(region_s.begin(), region_s.end());
    std::sort(reduce_s.begin(), reduce_s.end());
    const double region = region_s[region_s.size() / 2], reduce = reduce_s[reduce_s.size() / 2];
    state.counters["ns_per_region"] = region * 1e9;
    state.counters["reduce_2^16_us"] = reduce * 1e6;
    state.counters["pct_of_reduce"] = 100.0 * region / reduce;
    std::printf("no-tool profiling region: %.1f ns per call = %.4f%% of a float reduce of 2^16 (%.1f us), "
                "tool loaded: %s\n",
                region * 1e9, 100.0 * region / reduce, reduce * 1e6,
                Kokkos::Profiling::profileLibraryLoaded() ? "yes" : "no");
  })
      ->UseManualTime()
      ->Iterations(settings.repetitions)
      ->Unit(benchmark::kNanosecond);
}

// ---- sizes, device, report ----------------------------------------------------------------

std::size_t memory_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (!host_space) {
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    return free;
  }
#endif
  return std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
}

std::string device_name() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (!host_space) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, Space().cuda_device());
    return prop.name;
  }
#endif
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      std::string name = line.substr(line.find(':') + 2);
      return name + " x" + std::to_string(Space().concurrency()) + " threads";
    }
  return Space::name();
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

std::string csv_field(std::string text) {
  std::replace(text.begin(), text.end(), ',', ';');
  return text;
}

void write_summary(const std::string& device) {
  std::ofstream csv(settings.summary);
  csv << "device,date,commit,primitive,impl,algorithm,type,n,time_us,gbps,pct_copy\n";
  for (const Measurement& m : measurements)
    csv << csv_field(device) << ',' << today() << ',' << KPRIM_GIT_COMMIT << ',' << m.primitive << ',' << m.impl << ','
        << m.algorithm << ',' << m.type << ',' << m.n << ',' << m.time_us << ',' << m.gbps << ',' << m.pct_copy << '\n';
  std::printf("summary CSV: %s (%zu rows)\n", settings.summary.c_str(), measurements.size());
}

/// For each primitive/type/n: GB/s per implementation and kprim's best over the best peer.
void print_table() {
  struct Row {
    std::map<std::string, double> gbps;  // impl[/algorithm] -> GB/s
  };
  std::map<std::tuple<std::string, std::string, std::int64_t>, Row> rows;
  std::vector<std::string> columns;
  for (const Measurement& m : measurements) {
    if (m.impl == "copy") continue;
    const std::string column = m.impl == "kprim" ? "kprim/" + m.algorithm : m.impl;
    if (std::find(columns.begin(), columns.end(), column) == columns.end()) columns.push_back(column);
    rows[{m.primitive, m.type, m.n}].gbps[column] = m.gbps;
  }
  std::printf("\nGB/s of ideal traffic (reduce n reads, dot 2n, scans 2n); ratio = best kprim / best peer\n");
  std::printf("%-15s %-7s %11s", "primitive", "type", "n");
  for (const auto& c : columns) std::printf(" %18s", c.c_str());
  std::printf(" %10s %7s\n", "copy", "ratio");
  for (const auto& [key, row] : rows) {
    const auto& [primitive, type, n] = key;
    std::printf("%-15s %-7s %11lld", primitive.c_str(), type.c_str(), (long long)n);
    double best_kprim = 0, best_peer = 0;
    for (const auto& c : columns) {
      const auto it = row.gbps.find(c);
      if (it == row.gbps.end()) {
        std::printf(" %18s", "-");
        continue;
      }
      std::printf(" %18.1f", it->second);
      (c.rfind("kprim/", 0) == 0 ? best_kprim : best_peer) = std::max(c.rfind("kprim/", 0) == 0 ? best_kprim : best_peer, it->second);
    }
    const auto copy = copy_gbps.find({type, n});
    std::printf(" %10.1f %7.2f\n", copy == copy_gbps.end() ? 0.0 : copy->second, best_peer > 0 ? best_kprim / best_peer : 0.0);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // takes --kokkos-* flags out of argv
  kprim_perf::Arguments args("kprim-bench",
                            "kprim-bench: kprim's primitives beside Kokkos, CUB (CUDA) and a copy, each result checked "
                            "(docs/benchmarking.md)");
  args.option("quick", "", "float and int32 at 2^10, 2^16, 2^20, 5 timed calls: a smoke run",
              [](const std::string&) { settings.quick = true; })
      .option("ladder", "", "the seeds' ladders: every algorithm at 2^20, 2^24, 2^28 (perf_tests/ladder_table.py)",
              [](const std::string&) { settings.ladder = true; })
      .option("reps", "N", "timed calls per benchmark, the median reported (default 20)",
              [](const std::string& v) { settings.repetitions = kprim_perf::positive_int(v, "--reps"); })
      .option("max-log2", "K", "largest n is 2^K (default 30; sizes that do not fit in memory are skipped)",
              [](const std::string& v) { settings.max_log2 = kprim_perf::positive_int(v, "--max-log2"); })
      .option("summary", "FILE", "summary CSV (default kprim-bench-summary.csv)",
              [](const std::string& v) { settings.summary = v; })
      .pass_through("--benchmark_", "Google Benchmark's flags: --benchmark_filter=REGEX, --benchmark_out=FILE, ...");
  args.parse(argc, argv);
  std::vector<char*> rest{argv[0]};
  rest.insert(rest.end(), args.passed_through().begin(), args.passed_through().end());
  if (settings.quick) settings.repetitions = std::min(settings.repetitions, 5);
  int rest_count = int(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 1;

  const std::string device = device_name();
  // In every report (the console header, --benchmark_out JSON's "context"): what was measured where.
  std::string backends;
  const auto backend = [&](const char* name) { backends += (backends.empty() ? "" : ",") + std::string(name); };
#ifdef KOKKOS_ENABLE_SERIAL
  backend("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  backend("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  backend("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  backend("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  backend("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  backend("SYCL");
#endif
  benchmark::AddCustomContext("kprim_version", kprim::version_string());
  benchmark::AddCustomContext("kprim_commit", KPRIM_GIT_COMMIT);
  benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION));
  benchmark::AddCustomContext("kokkos_backends", backends);
  benchmark::AddCustomContext("execution_space", Space::name());
  benchmark::AddCustomContext("device", device);
  std::vector<std::int64_t> sizes;
  if (settings.ladder) {
    for (const int log2 : {20, 24, 28})
      if (log2 <= settings.max_log2) sizes.push_back(std::int64_t(1) << log2);
  } else if (settings.quick) {
    sizes = {1 << 10, 1 << 16, 1 << 20};
  } else {
    for (int log2 = 10; log2 <= settings.max_log2; ++log2) sizes.push_back(std::int64_t(1) << log2);
    sizes.insert(sizes.end(), {1'000'003, 100'000'007});
  }
  std::sort(sizes.begin(), sizes.end());
  // Three arrays of n values must fit in half of the memory (scans also need a few % more).
  auto fits = [](std::int64_t n, std::size_t size) { return 3.0 * n * size <= 0.5 * memory_bytes(); };
  for (const std::int64_t n : sizes) {
    if (settings.ladder) {
      if (fits(n, 4)) register_size<float>(n);
      if (fits(n, 8)) register_size<double>(n);
      if (fits(n, 4)) register_size<std::int32_t>(n);
      continue;
    }
    if (fits(n, 4)) register_size<float>(n);
    if (fits(n, 4)) register_size<std::int32_t>(n);
    if (!settings.quick && fits(n, 8)) register_size<double>(n);
    if (!settings.quick && fits(n, 8)) register_size<std::int64_t>(n);
  }
  // The application rows at the sizes the targets name (complex<double>: 16 bytes per element).
  for (const std::int64_t n : sizes)
    if ((settings.quick || n == std::int64_t(1) << 20 || n >= std::int64_t(1) << 24) && fits(n, 16)) {
      register_app(n);
      register_lambdas(n);
      register_team(n);
      register_segmented(n);
    }
  register_tools_cost();
  std::printf("kprim-bench: kprim %s (commit %s), Kokkos %d, space %s, device %s\n", kprim::version_string(),
              KPRIM_GIT_COMMIT, KOKKOS_VERSION, Space::name(), device.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (release_inputs) release_inputs();
  print_table();
  write_summary(device);
  return 0;
}
