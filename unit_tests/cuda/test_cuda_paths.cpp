// Tests aimed at the hand-written CUDA paths (KPRIM_ENABLE_CUDA_WARP), run on Kokkos::Cuda for
// every type x built-in op: every size 0..100, sizes around multiples of a warp, a block and
// the reduce/scan tiles, misaligned subviews (vector-load head and tail), strided Views, and
// guard elements around every output. With the option OFF the same tests check the portable
// kernels at these sizes.

#include "../test_support.hpp"
#include "affine_maps.hpp"

#include <kprim/impl/cuda/trait.hpp>
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(__CUDACC__)
#include <kprim/impl/cuda/lookahead_scan.cuh>  // the look-ahead and lagged kernels' sizes
#endif

#include <catch2/catch_template_test_macros.hpp>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>

using namespace kprim_test;

namespace {

using CudaValueOp = typename cases<std::tuple<Kokkos::Cuda>, Values, BuiltinOps>::type;

#if defined(KPRIM_ENABLE_CUDA_WARP)
static_assert(kprim::impl::cuda::has_cuda_path_v<Kokkos::Cuda, float, kprim::Sum>);
static_assert(kprim::impl::cuda::has_cuda_path_v<Kokkos::Cuda, std::uint64_t, kprim::Max>);
#else
static_assert(!kprim::impl::cuda::has_cuda_path_v<Kokkos::Cuda, float, kprim::Sum>);
#endif
static_assert(!kprim::impl::cuda::has_cuda_path_v<Kokkos::Serial, float, kprim::Sum>);
static_assert(!kprim::impl::cuda::has_cuda_path_v<Kokkos::Cuda, short, kprim::Sum>);

/// 0..100, then around multiples of 32, 1024, the scan tiles (8192, 4096), many
/// tiles (look-back windows of more than 32 tiles) and a large odd size.
std::vector<std::int64_t> cuda_sizes() {
  std::vector<std::int64_t> list;
  for (std::int64_t n = 0; n <= 100; ++n) list.push_back(n);
  for (const std::int64_t m : {127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097,
                               8191, 8192, 8193, 16384 + 3, 32 * 4096 + 1, 33 * 4096 - 1, 65 * 2048 + 5,
                               // scan tiles: 128 x 64 = 8192 elements for 4-byte types, 128 x 32 = 4096 for
                               // 8-byte ones (above); 224 x 24 = 5376 was the 8-byte tile before
                               5375, 5376, 5377, 2 * 5376 + 1, 33 * 8192 - 1, 65 * 5376 + 5, (1 << 20) + 7, 3'000'017})
    list.push_back(m);
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

constexpr std::int64_t guard = 5;  // elements checked on each side of an output

template <class T>
T sentinel() {
  return T(77);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("CUDA paths: reduce of every size, offset and stride", "[cuda]", CudaValueOp) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : cuda_sizes()) {
    const std::vector<T> host = exact_input<T, Op>(3 * (n + 3), 5000 + n);
    const auto all = to_space(space, host, "all");
    for (const int offset : {0, 1, 2, 3}) {
      const auto x = Kokkos::subview(all, std::pair<std::int64_t, std::int64_t>(offset, offset + n));
      const T expected = std::reduce(host.begin() + offset, host.begin() + offset + n, kprim::identity_of<T>(op), op);
      INFO(case_name<TestType>() << ", n = " << n << ", offset = " << offset);
      REQUIRE(kprim::reduce(space, x, op) == expected);
    }
    // every third element: a LayoutStride View
    const auto strided = Kokkos::subview(all, Kokkos::pair<std::int64_t, std::int64_t>(0, 3 * n));
    Kokkos::View<const T*, Kokkos::LayoutStride, Kokkos::CudaSpace> every_third(
        strided.data(), Kokkos::LayoutStride(std::size_t(n), 3));
    T expected = kprim::identity_of<T>(op);
    for (std::int64_t i = 0; i < n; ++i) expected = op(expected, host[3 * i]);
    INFO(case_name<TestType>() << ", n = " << n << ", stride 3");
    REQUIRE(kprim::reduce(space, every_third, op) == expected);
  }
}

TEMPLATE_LIST_TEST_CASE("CUDA paths: dot with differently aligned inputs", "[cuda]", SpaceValue) {
  using T = typename TestType::value;
  if constexpr (std::is_same_v<typename TestType::space, Kokkos::Cuda>) {
    const Kokkos::Cuda space;
    for (const std::int64_t n : cuda_sizes()) {
      const std::vector<T> hx = exact_input<T, kprim::Sum>(n + 3, 10 + n), hy = exact_input<T, kprim::Sum>(n + 3, 20 + n);
      const auto ax = to_space(space, hx, "x"), ay = to_space(space, hy, "y");
      for (const auto& [ox, oy] : {std::pair{0, 0}, {1, 1}, {3, 3}, {0, 1}, {2, 1}}) {
        T expected = 0;
        for (std::int64_t i = 0; i < n; ++i) expected += hx[ox + i] * hy[oy + i];
        const auto x = Kokkos::subview(ax, std::pair<std::int64_t, std::int64_t>(ox, ox + n));
        const auto y = Kokkos::subview(ay, std::pair<std::int64_t, std::int64_t>(oy, oy + n));
        INFO(case_name<TestType>() << ", n = " << n << ", offsets " << ox << ", " << oy);
        REQUIRE(kprim::dot(space, x, y) == expected);
      }
    }
  }
}

/// Inclusive and exclusive scans of n elements for each n in `sizes`, from each input offset into
/// each output offset (guards untouched), then in place; results and totals checked.
template <class T, class Op>
void check_scans(const std::vector<std::int64_t>& sizes, std::initializer_list<int> in_offsets,
                 std::initializer_list<int> out_offsets, const char* name) {
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : sizes) {
    const std::vector<T> host = exact_input<T, Op>(n + 3, 7000 + n);
    const auto all_in = to_space(space, host, "in");
    for (const int in_offset : in_offsets) {
      for (const int out_offset : out_offsets) {
        for (const bool exclusive : {false, true}) {
          const T init = exclusive ? exact_init<T, Op>() : kprim::identity_of<T>(op);
          std::vector<T> expected(n);
          T expected_total = init;
          for (std::int64_t i = 0; i < n; ++i) {
            const T value = host[in_offset + i];
            expected[i] = exclusive ? expected_total : op(expected_total, value);
            expected_total = op(expected_total, value);
          }
          // output with `guard` sentinels on each side
          Kokkos::View<T*, Kokkos::CudaSpace> buffer("out", n + out_offset + 2 * guard);
          Kokkos::deep_copy(buffer, sentinel<T>());
          const auto in = Kokkos::subview(all_in, std::pair<std::int64_t, std::int64_t>(in_offset, in_offset + n));
          const auto out = Kokkos::subview(buffer, std::pair<std::int64_t, std::int64_t>(guard + out_offset,
                                                                                         guard + out_offset + n));
          Kokkos::View<T, Kokkos::HostSpace> total("total");
          if (exclusive)
            kprim::exclusive_scan(space, in, out, init, total, op);
          else
            kprim::inclusive_scan(space, in, out, total, op);
          space.fence();
          const std::vector<T> got = to_host(buffer);
          INFO(name << ", n = " << n << ", in offset " << in_offset << ", out offset " << out_offset
                                     << (exclusive ? ", exclusive" : ", inclusive"));
          REQUIRE(first_mismatch(std::vector<T>(got.begin() + guard + out_offset, got.end() - guard), expected) < 0);
          for (std::int64_t i = 0; i < guard + out_offset; ++i) REQUIRE(got[i] == sentinel<T>());
          for (std::int64_t i = std::int64_t(got.size()) - guard; i < std::int64_t(got.size()); ++i)
            REQUIRE(got[i] == sentinel<T>());
          REQUIRE(total() == expected_total);
        }
      }
    }
    // in place, contiguous and aligned: the vector path reads a tile before it writes it
    const auto inout = to_space(space, std::vector<T>(host.begin(), host.begin() + n), "inout");
    kprim::inclusive_scan(space, inout, inout, op);
    std::vector<T> expected(n);
    std::inclusive_scan(host.begin(), host.begin() + n, expected.begin(), op);
    INFO(name << ", n = " << n << ", in place");
    REQUIRE(first_mismatch(to_host(inout), expected) < 0);
  }
}

TEMPLATE_LIST_TEST_CASE("CUDA paths: scans of every size and offset, guards untouched", "[cuda]", CudaValueOp) {
  check_scans<typename TestType::value, typename TestType::op>(cuda_sizes(), {0, 1, 3}, {0, 2},
                                                               case_name<TestType>().c_str());
}

#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(__CUDACC__)
namespace {

/// The current device's SM count, which the kernels' thresholds scale with.
int current_sm_count() {
  int device = 0, sm_count = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
  return sm_count;
}

/// Sizes around where long scans of In into T move to the lagged kernel `Policy` on this GPU (a
/// block's second round of tiles): the last size of the default kernel, the first of the lagged
/// one, and one of several rounds ending in a short tile.
template <class T, class Policy = kprim::impl::cuda::plain_lagged_scan_policy<T>>
std::vector<std::int64_t> lagged_scan_sizes() {
  namespace cuda = kprim::impl::cuda;
  const int sm_count = current_sm_count();
  using policy = Policy;
  const std::int64_t first = 2 * std::int64_t(sm_count) * policy::min_blocks_per_sm * policy::tile_size;
  REQUIRE_FALSE(cuda::takes_lagged_scan<T, Policy>(first - 1, sm_count));
  REQUIRE(cuda::takes_lagged_scan<T, Policy>(first, sm_count));
  std::vector<std::int64_t> list{first - 1, first, 3 * first + policy::tile_size / 2 + 7};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("CUDA paths: long scans (the lagged kernel), every type and op", "[cuda]", CudaValueOp) {
  using T = typename TestType::value;
  if constexpr (kprim::impl::cuda::lagged_scan_avail_v<T>)
    check_scans<T, typename TestType::op>(lagged_scan_sizes<T>(), {0, 1}, {0}, case_name<TestType>().c_str());
}

namespace {
/// Sizes around where long scans of 4- and 8-byte types move to the look-ahead kernel (sm_90 code on
/// an sm_90 device; elsewhere they run lagged): its threshold, last tiles of 1
/// and 3 elements (no bulk copy for 4-byte types; for 8-byte ones 3 is a vector and a tail), of a
/// tile and 1 and of a tile less 3 (a bulk copy and a tail).
template <class T>
std::vector<std::int64_t> lookahead_scan_sizes() {
  namespace cuda = kprim::impl::cuda;
  const int sm_count = current_sm_count();
  constexpr std::int64_t tile = cuda::LookaheadShape<T>::tile_size;
  const std::int64_t first = 8 * std::int64_t(sm_count) * cuda::LookaheadShape<T>::blocks_per_sm * tile;
  REQUIRE_FALSE(cuda::takes_lookahead_scan<T>(first - 1, sm_count));
  REQUIRE(cuda::takes_lookahead_scan<T>(first, sm_count));
  std::vector<std::int64_t> list{first - 1, first, first + 1, first + 3, first + tile + 1, first + 4 * tile - 3};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("CUDA paths: long scans of 4- and 8-byte types with a commutative op (the look-ahead kernel)",
                        "[cuda]", CudaValueOp) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  if constexpr (kprim::impl::cuda::lookahead_scan_avail_v<T, Op>) {
    int device = 0;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    INFO("look-ahead kernel compiled for this device: " << (kprim::impl::cuda::lookahead_scan_compiled<T, Op>(device)));
    check_scans<T, Op>(lookahead_scan_sizes<T>(), {0}, {0}, case_name<TestType>().c_str());
  }
}

/// Random affine maps (a in [1, p), b in [0, p)) scanned exclusive from `init` into a View, then
/// inclusive in place, against the host's scans in order.
template <class F, class Op>
void check_affine_scans(const std::vector<std::int64_t>& sizes, const char* name) {
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : sizes) {
    const std::vector<F> host = random_affine_maps<F, Op>(n, n);
    const auto in = to_space(space, host, "in");
    Kokkos::View<F*, Kokkos::CudaSpace> out("out", n);
    std::vector<F> expected(n);
    const F init{7, 11};
    std::exclusive_scan(host.begin(), host.end(), expected.begin(), init, op);
    kprim::exclusive_scan(space, in, out, init, op);
    INFO(name << ", n = " << n << ", exclusive");
    REQUIRE(first_mismatch(to_host(out), expected) < 0);
    std::inclusive_scan(host.begin(), host.end(), expected.begin(), op);
    kprim::inclusive_scan(space, in, in, op);
    INFO("in place, inclusive");
    REQUIRE(first_mismatch(to_host(in), expected) < 0);
  }
}

TEST_CASE("CUDA paths: long scans of non-commutative user ops (the look-ahead kernel)", "[cuda]") {
  static_assert(kprim::impl::cuda::lookahead_scan_avail_v<Affine16, ThenAffine16>);
  static_assert(kprim::impl::cuda::lookahead_scan_avail_v<Affine32, ThenAffine32>);
  SECTION("4 bytes") {
    check_affine_scans<Affine16, ThenAffine16>(lookahead_scan_sizes<Affine16>(), "affine maps mod 251 (4 bytes)");
  }
  SECTION("8 bytes") {
    check_affine_scans<Affine32, ThenAffine32>(lookahead_scan_sizes<Affine32>(), "affine maps mod 46349 (8 bytes)");
  }
}

TEST_CASE("CUDA paths: long scans of a non-commutative user op and of int32 counts into int64 offsets", "[cuda]") {
  static_assert(kprim::impl::cuda_spec_avail_v<Kokkos::Cuda, kprim::impl::Primitive::scan, Affine32, Affine32, ThenAffine32>);
  const Kokkos::Cuda space;
  check_affine_scans<Affine32, ThenAffine32>(lagged_scan_sizes<Affine32>(), "affine maps");
  for (const std::int64_t n : lagged_scan_sizes<std::int64_t, kprim::impl::cuda::plain_lagged_scan_policy<std::int64_t, std::int32_t>>()) {
    std::mt19937_64 rng(n + 1);
    std::vector<std::int32_t> counts(n);
    for (auto& c : counts) c = std::int32_t(rng() % 50);
    const auto in = to_space(space, counts, "counts");
    Kokkos::View<std::int64_t*, Kokkos::CudaSpace> offsets("offsets", n + 1);
    Kokkos::View<std::int64_t, Kokkos::HostSpace> total("total");
    kprim::exclusive_scan(space, in, Kokkos::subview(offsets, std::pair<std::int64_t, std::int64_t>(0, n)),
                          std::int64_t(0), total);
    space.fence();
    std::vector<std::int64_t> expected(n + 1, 0);
    std::inclusive_scan(counts.begin(), counts.end(), expected.begin() + 1, std::plus<>{}, std::int64_t(0));
    std::vector<std::int64_t> got = to_host(offsets);
    got[n] = total();
    INFO("int32 counts -> int64 offsets, n = " << n);
    REQUIRE(first_mismatch(got, expected) < 0);
  }
}
TEST_CASE("CUDA paths: long scans of strided columns (the lagged kernel, element by element)", "[cuda]") {
  const Kokkos::Cuda space;
  for (const std::int64_t n : lagged_scan_sizes<float, kprim::impl::cuda::lagged_scan_policy<float>>()) {
    // Column 1 of an n x 3 LayoutRight matrix (stride 3), scanned into a contiguous View.
    const std::vector<float> values = exact_input<float, kprim::Sum>(n, 13000 + n);
    std::vector<float> host_matrix(3 * n, -1.0f);
    for (std::int64_t i = 0; i < n; ++i) host_matrix[3 * i + 1] = values[i];
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::CudaSpace> matrix("matrix", n, 3);
    Kokkos::deep_copy(matrix, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(host_matrix.data(), n, 3));
    const auto column = Kokkos::subview(matrix, Kokkos::ALL, 1);
    Kokkos::View<float*, Kokkos::CudaSpace> out("out", n);
    kprim::inclusive_scan(space, column, out);
    std::vector<float> expected(n);
    std::inclusive_scan(values.begin(), values.end(), expected.begin());
    INFO("float column, stride 3, n = " << n);
    REQUIRE(first_mismatch(to_host(out), expected) < 0);
  }
  for (const std::int64_t n : lagged_scan_sizes<std::int64_t, kprim::impl::cuda::lagged_scan_policy<std::int64_t>>()) {
    // Every other int32 count into int64 offsets, exclusive.
    std::mt19937_64 rng(n + 3);
    std::vector<std::int32_t> host(2 * n);
    for (auto& c : host) c = std::int32_t(rng() % 50);
    const auto all = to_space(space, host, "counts");
    const auto counts = Kokkos::subview(Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Kokkos::CudaSpace>(all.data(), n, 2),
                                        Kokkos::ALL, 0);
    Kokkos::View<std::int64_t*, Kokkos::CudaSpace> offsets("offsets", n);
    kprim::exclusive_scan(space, counts, offsets, std::int64_t(5));
    std::vector<std::int64_t> expected(n);
    std::int64_t running = 5;
    for (std::int64_t i = 0; i < n; ++i) {
      expected[i] = running;
      running += host[2 * i];
    }
    INFO("int32 column, stride 2, into int64, n = " << n);
    REQUIRE(first_mismatch(to_host(offsets), expected) < 0);
  }
}
TEST_CASE("CUDA paths: long segmented scans (the lagged kernel)", "[cuda]") {
  const Kokkos::Cuda space;
  for (const std::int64_t n : lagged_scan_sizes<float, kprim::impl::cuda::lagged_scan_policy<float>>()) {
    // CSR segments of 0-2999 elements (a third empty) from element 5 to n - 3: the rest is never written.
    std::mt19937_64 rng(n + 2);
    std::vector<std::int64_t> offsets{5};
    while (offsets.back() < n - 3) {
      const std::int64_t length = rng() % 3 == 0 ? 0 : std::int64_t(rng() % 3000);
      offsets.push_back(std::min(offsets.back() + length, n - 3));
    }
    const std::vector<std::int32_t> host = exact_input<std::int32_t, kprim::Sum>(n, 9000 + n);
    const auto in32 = to_space(space, host, "in32");
    const auto in = to_space(space, std::vector<float>(host.begin(), host.end()), "in");
    const auto device_offsets = to_space(space, offsets, "offsets");
    std::vector<float> inclusive(n, sentinel<float>());
    std::vector<std::int64_t> exclusive(n, sentinel<std::int64_t>());
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
      float running = 0;
      std::int64_t before = 3;  // init
      for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
        running += float(host[i]);
        inclusive[i] = running;
        exclusive[i] = before;
        before += host[i];
      }
    }
    Kokkos::View<float*, Kokkos::CudaSpace> out("out", n);
    Kokkos::deep_copy(out, sentinel<float>());
    kprim::segmented_inclusive_scan(space, in, device_offsets, out);
    INFO("n = " << n << ", " << offsets.size() - 1 << " segments, inclusive float");
    REQUIRE(first_mismatch(to_host(out), inclusive) < 0);
    Kokkos::View<std::int64_t*, Kokkos::CudaSpace> out64("out64", n);
    Kokkos::deep_copy(out64, sentinel<std::int64_t>());
    kprim::segmented_exclusive_scan(space, in32, device_offsets, out64, std::int64_t(3));
    INFO("exclusive, int32 -> int64");
    REQUIRE(first_mismatch(to_host(out64), exclusive) < 0);
    // fixed segments of 1000 (the last shorter), in place
    std::vector<float> fixed(n);
    for (std::int64_t i = 0; i < n; ++i) fixed[i] = (i % 1000 == 0 ? 0.0f : fixed[i - 1]) + float(host[i]);
    kprim::segmented_inclusive_scan(space, in, 1000, in);
    INFO("fixed segments of 1000, in place");
    REQUIRE(first_mismatch(to_host(in), fixed) < 0);
  }
}
namespace {
/// One kernel launch of `Policy` on a tile state that earlier launches used (epochs 1, 2, ...,
/// never zeroed between them), checked against the host: the output, the bytes after the tile
/// state (guards) and the ticket slot, which the kernel must leave zero.
template <class Policy>
void check_reused_tile_state(const char* shape) {
  namespace cuda = kprim::impl::cuda;
  const Kokkos::Cuda space;
  int device = 0, sm_count = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
  const std::int64_t largest = 40 * Policy::tile_size;
  const std::size_t state_bytes = cuda::scan_tile_state_for<float, Policy>(largest).bytes;
  constexpr std::size_t guard_bytes = 4096;
  Kokkos::View<unsigned char*, Kokkos::CudaSpace> temp("temp", state_bytes + guard_bytes);
  Kokkos::deep_copy(Kokkos::subview(temp, std::pair<std::size_t, std::size_t>(state_bytes, state_bytes + guard_bytes)),
                    0xAB);
  unsigned epoch = 0;
  // Few tiles (late lagged blocks find none left), then more tiles over words of older epochs, then fewer again.
  for (const std::int64_t n : {std::int64_t(1000), 5 * Policy::tile_size + 7, largest, 3 * Policy::tile_size,
                               largest - 1, 2 * Policy::tile_size}) {
    const std::vector<float> host = exact_input<float, kprim::Sum>(n, 11000 + n + epoch);
    const auto in = to_space(space, host, "in");
    Kokkos::View<float*, Kokkos::CudaSpace> out("out", n);
    const kprim::impl::TileState tiles{temp.data(), ++epoch};
    REQUIRE(cuda::launch_scan<float, kprim::Sum, Policy>(space.cuda_stream(), cuda::Input<float>{in.data(), 1},
                                                         cuda::Output<float>{out.data(), 1}, n, false, 0.0f, kprim::Sum{},
                                                         nullptr, tiles, sm_count) == cudaSuccess);
    space.fence();
    std::vector<float> expected(n);
    std::inclusive_scan(host.begin(), host.end(), expected.begin());
    INFO(shape << ", n = " << n << ", " << cuda::scan_tiles<Policy>(n) << " tiles, epoch " << epoch);
    REQUIRE(first_mismatch(to_host(out), expected) < 0);
    const std::vector<unsigned char> bytes = to_host(temp);
    CHECK(std::count(bytes.begin() + std::ptrdiff_t(state_bytes), bytes.end(), 0xAB) == std::ptrdiff_t(guard_bytes));
    CHECK(std::count(bytes.begin(), bytes.begin() + 16, 0) == 16);
  }
}

/// A float scan of n elements through the public call, checked against the host.
void check_float_scan(const Kokkos::Cuda& space, std::int64_t n, std::uint64_t seed) {
  const std::vector<float> host = exact_input<float, kprim::Sum>(n, seed);
  const auto in = to_space(space, host, "in");
  Kokkos::View<float*, Kokkos::CudaSpace> out("out", n);
  kprim::inclusive_scan(space, in, out);
  std::vector<float> expected(n);
  std::inclusive_scan(host.begin(), host.end(), expected.begin());
  INFO("float inclusive scan, n = " << n);
  REQUIRE(first_mismatch(to_host(out), expected) < 0);
}

/// Int32 counts into int64 offsets (16-byte tile words), checked against the host.
void check_offsets_scan(const Kokkos::Cuda& space, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> counts(n);
  for (auto& c : counts) c = std::int32_t(rng() % 50);
  const auto in = to_space(space, counts, "counts");
  Kokkos::View<std::int64_t*, Kokkos::CudaSpace> out("offsets", n);
  kprim::exclusive_scan(space, in, out, std::int64_t(0));
  std::vector<std::int64_t> expected(n);
  std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), std::int64_t(0));
  INFO("int32 -> int64 exclusive scan, n = " << n);
  REQUIRE(first_mismatch(to_host(out), expected) < 0);
}

/// copy_if of the positive elements (int64 tile words), checked against the host.
void check_copy_if(const Kokkos::Cuda& space, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> host(n);
  for (auto& x : host) x = double(std::int64_t(rng() % 9) - 4);
  const auto in = to_space(space, host, "in");
  Kokkos::View<double*, Kokkos::CudaSpace> out("out", n);
  const std::int64_t count = kprim::copy_if(space, in, out, KOKKOS_LAMBDA(double v) { return v > 0.0; });
  std::vector<double> expected;
  std::copy_if(host.begin(), host.end(), std::back_inserter(expected), [](double v) { return v > 0.0; });
  INFO("copy_if, n = " << n);
  REQUIRE(count == std::int64_t(expected.size()));
  std::vector<double> got = to_host(out);
  got.resize(expected.size());
  REQUIRE(first_mismatch(got, expected) < 0);
}
}  // namespace

TEST_CASE("CUDA paths: scan kernels reuse their tile state, and write nothing past it", "[cuda]") {
  // Lagged blocks take two tickets at once: with fewer tiles than that, late blocks find none left
  // and must not touch tile words past the last tile (the guard bytes after the tile state).
  check_reused_tile_state<kprim::impl::cuda::lagged_scan_policy<float>>("lagged");
  check_reused_tile_state<kprim::impl::cuda::plain_lagged_scan_policy<double>>("lagged, fetched ahead");
  check_reused_tile_state<kprim::impl::cuda::default_scan_policy<float>>("one tile a block");
}

TEST_CASE("CUDA paths: calls of other types and sizes between scans (tile words of other layouts)", "[cuda]") {
  // An instance's tile state is zeroed only when the word layout changes: 8-byte words (float),
  // 16-byte words (int64 offsets, copy_if's counts, double), in both orders, over more and fewer
  // tiles than the call before, the long sizes on the lagged kernel.
  const Kokkos::Cuda space;
  const std::int64_t longest = std::min<std::int64_t>(max_test_size(), 8'000'003);
  const std::int64_t shorter = std::min<std::int64_t>(max_test_size(), (1 << 20) + 7);
  std::uint64_t seed = 500;
  check_float_scan(space, shorter, ++seed);
  check_float_scan(space, longest, ++seed);
  check_offsets_scan(space, shorter, ++seed);
  check_float_scan(space, shorter, ++seed);
  check_float_scan(space, longest, ++seed);
  check_copy_if(space, longest, ++seed);
  check_offsets_scan(space, longest, ++seed);
  check_copy_if(space, shorter, ++seed);
  check_float_scan(space, longest, ++seed);
  check_float_scan(space, longest, ++seed);
}
#endif
