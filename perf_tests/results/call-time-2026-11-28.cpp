// Experiment (issue #25, GPU): where a large scan call's time goes outside its kernels. At 2^20,
// 2^24, 2^26 and 2^28 floats: kprim's inclusive scan and reduce, Kokkos::deep_copy of the same
// bytes (the copy kprim-bench divides by), and the pieces of a scan call outside its kernel (a
// memset of the tile states, an empty kernel's launch), each timed 20 times four ways: host wall
// time from the call to the fence after it (as kprim-bench), CUDA events on the stream around the
// call, the host time the call takes to return (enqueue), and the fence alone. Medians in us. Not built by CMake; from
// an nvcc build directory of kprim (KPRIM_ENABLE_CUDA_WARP=ON, patched Kokkos 4.6.99):
//   nvcc_wrapper -O3 -DNDEBUG -std=c++20 -extended-lambda -arch=sm_90 -I$PWD/include \
//     -I$PWD/build/include -isystem <kokkos>/include -c $PWD/perf_tests/results/call-time-2026-11-28.cpp \
//     -o call-time.o    (nvcc_wrapper takes -Ipath without a space, and absolute sources)
//   nvcc_wrapper -O3 -arch=sm_90 call-time.o -o call-time build/libkprim.a <kokkos libs> \
//     libcuda.so libcudart_static.a -ldl
#include <kprim/kprim.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
using clk = std::chrono::steady_clock;
__global__ void empty_kernel() {}
static double us(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
template <class Call>
void time_call(const char* name, Call&& call) {
  Kokkos::Cuda space;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> wall, events, enqueue, fence;
  call(); space.fence();
  for (int rep = 0; rep < 20; ++rep) {
    const auto t0 = clk::now();
    cudaEventRecord(e0, space.cuda_stream());
    call();
    const auto t1 = clk::now();
    cudaEventRecord(e1, space.cuda_stream());
    space.fence();
    const auto t2 = clk::now();
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    wall.push_back(us(t0, t2)); events.push_back(ms * 1e3); enqueue.push_back(us(t0, t1));
    const auto t3 = clk::now(); space.fence(); fence.push_back(us(t3, clk::now()));
  }
  std::printf("%-28s wall %8.1f  events %8.1f  enqueue %6.1f  idle fence %5.1f\n", name, median(wall), median(events),
              median(enqueue), median(fence));
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (const long n : {1L << 20, 1L << 24, 1L << 26, 1L << 28}) {
    Kokkos::View<float*, Kokkos::CudaSpace> x("x", n), y("y", n);
    Kokkos::deep_copy(x, 1.0f);
    std::printf("n = %ld\n", n);
    const std::size_t state_bytes = 16 + std::size_t(n / 4096) * 8;  // the lagged float scan's tile states
    for (int round = 0; round < 2; ++round) {
      time_call("  cudaMemsetAsync(states)", [&] { cudaMemsetAsync(y.data(), 0, state_bytes, Kokkos::Cuda().cuda_stream()); });
      time_call("  empty kernel", [&] { empty_kernel<<<1, 32, 0, Kokkos::Cuda().cuda_stream()>>>(); });
      time_call("  Kokkos::deep_copy", [&] { Kokkos::deep_copy(Kokkos::Cuda(), y, x); });
      time_call("  kprim::inclusive_scan", [&] { kprim::inclusive_scan(Kokkos::Cuda(), x, y); });
      time_call("  kprim::reduce", [&] { volatile float r = kprim::reduce(Kokkos::Cuda(), x); (void)r; });
    }
  }
}
