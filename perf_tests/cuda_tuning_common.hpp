#pragma once
// Helpers shared by the CUDA tuning tools (kprim-scan-tuning, kprim-reduce-tuning): error checks,
// median event timing, input fill, result comparison, argument splitting.

#include <cuda_runtime.h>

#include "perf_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace kprim_tuning {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "kprim tuning: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(2);
  }
}

/// Median of `reps` timings of call() in microseconds, after two warm-up calls.
template <class Call>
double median_us(int reps, cudaEvent_t start, cudaEvent_t stop, Call call) {
  call();
  call();
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(start), "cudaEventRecord");
    call();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
  return 1000.0 * times[reps / 2];
}

template <class T>
__global__ void fill(T* data, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] = T((i * 7 + 3) % 5);  // small values: the integer sums are exact, the float ones near
}

template <class T>
bool same(const std::vector<T>& expected, const std::vector<T>& got) {
  if constexpr (std::is_integral_v<T>) {
    return expected == got;
  } else {
    const double e = double(expected.back()), g = double(got.back());
    return std::abs(e - g) <= 1e-5 * std::abs(e) + 1e-3;
  }
}

inline std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    parts.push_back(text.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return parts;
}

/// The tools' shared command line: --reps=N --log2=a,b,... --sizes=n,... --types=float,... --candidates=K.
struct Options {
  int reps = 20;
  int max_candidates = 1 << 30;
  std::vector<int> log2s{20, 24, 26, 28};
  std::vector<std::int64_t> other_sizes;  // --sizes
  std::vector<std::string> types{"float", "double", "int32", "int64"};

  /// The sizes to run: 2^log2s, then --sizes.
  std::vector<std::int64_t> sizes() const {
    std::vector<std::int64_t> all;
    for (const int log2 : log2s) all.push_back(std::int64_t(1) << log2);
    all.insert(all.end(), other_sizes.begin(), other_sizes.end());
    return all;
  }
};

/// Parses argv into `options` (perf_args.hpp: --help, unknown options are errors); `more` adds a
/// tool's own options. Returns true (--help and errors exit).
inline bool parse_options(int argc, char** argv, const char* tool, const char* summary, Options& options,
                          const std::function<void(kprim_perf::Arguments&)>& more = {}) {
  const auto list = [](const std::string& text) { return split(text); };
  kprim_perf::Arguments args(tool, summary);
  args.without_kokkos();
  args.option("reps", "N", "timed calls per candidate, the median reported (default 20)",
              [&](const std::string& v) { options.reps = kprim_perf::positive_int(v, "--reps"); })
      .option("log2", "A,B,...", "sizes 2^A, 2^B, ... (default 20,24,26,28)",
              [&](const std::string& v) {
                options.log2s.clear();
                for (const auto& part : list(v)) options.log2s.push_back(kprim_perf::positive_int(part, "--log2"));
              })
      .option("sizes", "N,...", "sizes N, ... besides the powers of two (odd sizes: 100000007)",
              [&](const std::string& v) {
                for (const auto& part : list(v)) options.other_sizes.push_back(kprim_perf::positive_count(part, "--sizes"));
              })
      .option("types", "T,...", "float, double, int32, int64; int32_to_int64 (the scan tool) (default: the tool's)",
              [&](const std::string& v) { options.types = list(v); })
      .option("candidates", "K", "only the first K policies (1: today's default)",
              [&](const std::string& v) { options.max_candidates = kprim_perf::positive_int(v, "--candidates"); });
  if (more) more(args);
  args.parse(argc, argv);
  return true;
}

/// Calls run.template operator()<T>(name) for each type named in `types`, in order; false (after
/// a message) at an unknown name.
template <class Run>
bool for_each_type(const std::vector<std::string>& types, const char* tool, Run run) {
  for (const auto& type : types) {
    if (type == "float") run.template operator()<float>("float");
    else if (type == "double") run.template operator()<double>("double");
    else if (type == "int32") run.template operator()<std::int32_t>("int32");
    else if (type == "int64") run.template operator()<std::int64_t>("int64");
    else {
      std::fprintf(stderr, "%s: unknown type %s\n", tool, type.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace kprim_tuning
