// Tests aimed at the hand-written CUDA paths (KPRIM_ENABLE_CUDA_WARP), run on Kokkos::Cuda for
// every type x built-in op: every size 0..100, sizes around multiples of a warp, a block and
// the reduce/scan tiles, misaligned subviews (vector-load head and tail), strided Views, and
// guard elements around every output. With the option OFF the same tests check the portable
// kernels at these sizes.

#include "../test_support.hpp"

#include <kprim/impl/cuda/trait.hpp>

#include <catch2/catch_template_test_macros.hpp>

#include <numeric>

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

TEMPLATE_LIST_TEST_CASE("CUDA paths: scans of every size and offset, guards untouched", "[cuda]", CudaValueOp) {
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Kokkos::Cuda space;
  const Op op;
  for (const std::int64_t n : cuda_sizes()) {
    const std::vector<T> host = exact_input<T, Op>(n + 3, 7000 + n);
    const auto all_in = to_space(space, host, "in");
    for (const int in_offset : {0, 1, 3}) {
      for (const int out_offset : {0, 2}) {
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
          INFO(case_name<TestType>() << ", n = " << n << ", in offset " << in_offset << ", out offset " << out_offset
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
    INFO(case_name<TestType>() << ", n = " << n << ", in place");
    REQUIRE(first_mismatch(to_host(inout), expected) < 0);
  }
}
