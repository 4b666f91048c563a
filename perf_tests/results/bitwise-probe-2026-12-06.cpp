// Probe (eleventh session, 2026-12-06; not a kprim target): where the CUDA bitwise scan's time goes (issue #25's
// "bitwise <= 1.25x the default"). Times, as kprim-bench does (median of 20 fenced calls after one warm-up, rounds
// interleaved): a copy, kprim's default and bitwise float inclusive scans through the public call, and the bitwise
// kernel (impl/cuda/bitwise.cuh) launched directly in other shapes (tiles a block, blocks a SM). Built, like
// csr-probe-2026-12-04.cpp, once per copy of include/ (inc-<variant>, bitwise-probes-2026-12-06.patch): base = the
// library's kernel; nowait-prefix = the scan's prefix nodes read once, not waited for; nowait = the chain's nodes
// too (both: timing only, results wrong). The direct launches are checked against the public call (base only).
// Usage: bw-probe-<variant> [log2 n = 28] [rounds = 3].
#include <kprim/kprim.hpp>
#include <kprim/impl/cuda/bitwise.cuh>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>
using Space = Kokkos::Cuda;
using V = Kokkos::View<float*, Space::memory_space>;
namespace cu = kprim::impl::cuda;
static double median_us(const std::function<void()>& call, int reps) {
  call(); Space().fence();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now(); call(); Space().fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
template <int Tiles, int Blocks>
struct Direct {
  static constexpr std::int64_t block_elements = cu::bitwise_tile_size * Tiles;
  static void run(const V& x, const V& out, std::int64_t n, void* temp, unsigned& epoch) {
    const std::int64_t blocks = std::max<std::int64_t>(1, (n + block_elements - 1) / block_elements);
    auto* bytes = static_cast<unsigned char*>(temp);
    ++epoch;
    cu::bitwise_kernel<float, kprim::Sum, true, true, false, Tiles, Blocks><<<unsigned(blocks), cu::bitwise_block_size, 0,
                                                                             Space().cuda_stream()>>>(
        cu::Input<float>{x.data(), 1}, cu::Input<float>{nullptr, 1}, cu::Output<float>{out.data(), 1}, n, blocks, false,
        0.0f, kprim::Sum{}, nullptr, reinterpret_cast<cu::TileWord<float>*>(bytes + 16), reinterpret_cast<unsigned*>(bytes),
        epoch);
  }
};
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int log2 = argc > 1 ? std::atoi(argv[1]) : 28, rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::int64_t n = std::int64_t(1) << log2;
  V x("x", n), out("out", n), ref("ref", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(std::int64_t i) { x(i) = float(i % 7) * 0.37f - 1.0f; });
  const kprim::ScanOptions bitwise{.determinism = kprim::Determinism::bitwise};
  kprim::inclusive_scan(Space(), x, ref, kprim::Sum{}, bitwise);
  // Temporary storage for the direct launches: counter (16 bytes) and every level's nodes of the smallest tiles.
  const std::int64_t most_blocks = (n + cu::bitwise_tile_size - 1) / cu::bitwise_tile_size;
  Kokkos::View<unsigned char*, Space::memory_space> temp("temp", 16 + cu::node_slots(most_blocks) * 8);
  unsigned epoch = 0;
  struct Case { std::string name; std::function<void()> call; std::vector<double> us; };
  std::vector<Case> cases;
  cases.push_back({"copy", [&] { Kokkos::deep_copy(Space(), out, x); }, {}});
  cases.push_back({"kprim_default", [&] { kprim::inclusive_scan(Space(), x, out, kprim::Sum{}); }, {}});
  cases.push_back({"kprim_bitwise", [&] { kprim::inclusive_scan(Space(), x, out, kprim::Sum{}, bitwise); }, {}});
  cases.push_back({"direct_4x6", [&] { Direct<4, 6>::run(x, out, n, temp.data(), epoch); }, {}});
  cases.push_back({"direct_2x8", [&] { Direct<2, 8>::run(x, out, n, temp.data(), epoch); }, {}});
  cases.push_back({"direct_4x4", [&] { Direct<4, 4>::run(x, out, n, temp.data(), epoch); }, {}});
  cases.push_back({"direct_1x8", [&] { Direct<1, 8>::run(x, out, n, temp.data(), epoch); }, {}});
  for (int r = 0; r < rounds; ++r)
    for (auto& c : cases) {
      c.us.push_back(median_us(c.call, 20));
      if (c.name.rfind("direct", 0) == 0 || c.name == "kprim_bitwise") {
        int wrong = 0;
        Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(0, n),
                                KOKKOS_LAMBDA(std::int64_t i, int& w) { w += out(i) != ref(i); }, wrong);
        std::printf("%s round %d: wrong %d\n", c.name.c_str(), r, wrong);
      }
    }
  const double copy = *std::min_element(cases[0].us.begin(), cases[0].us.end());
  for (auto& c : cases) {
    std::sort(c.us.begin(), c.us.end());
    std::printf("median 2^%d %-14s %9.1f us (rounds %.1f-%.1f)  copy/this %.3f  GB/s %.0f\n", log2, c.name.c_str(),
                c.us[c.us.size() / 2], c.us.front(), c.us.back(), copy / c.us[c.us.size() / 2],
                2.0 * n * 4 / c.us[c.us.size() / 2] / 1e3);
  }
  return 0;
}
