// The calls applications make, on every space: an accumulator wider than the input (int32 counts
// into int64 offsets, float data summed in double), a user op on a built-in type, a user struct
// with a non-commutative op, Kokkos::complex<double>, and strided input. Each call must give the
// host reference's result and, where kprim has hand-written CUDA kernels, run them: the Kokkos
// Tools region a call opens names the path it took, and a fast-path test that silently ran the
// portable kernels would be a false pass.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace kprim_test;

namespace {

/// 2x2 matrices of wrapping integers under the matrix product: associative, not commutative,
/// exact, 16 bytes (the scan's split tile words).
struct Mat2 {
  std::uint32_t a, b, c, d;
  bool operator==(const Mat2&) const = default;
};
struct MatProduct {
  KOKKOS_FUNCTION Mat2 operator()(const Mat2& x, const Mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
  KOKKOS_FUNCTION Mat2 identity() const { return {1, 0, 0, 1}; }
};

/// What a user writes for a sum without knowing kprim::Sum.
struct PlainAdd {
  KOKKOS_FUNCTION float operator()(float a, float b) const { return a + b; }
  KOKKOS_FUNCTION float identity() const { return 0.0f; }
};

using Complex = Kokkos::complex<double>;

/// Five running sums at once: a 40-byte accumulator, past what shuffles move (the CUDA reduce's
/// shared-memory warp steps; its scans run the portable kernels: over 16 bytes).
struct Sums5 {
  std::int64_t v[5];
  bool operator==(const Sums5&) const = default;
};
struct AddSums5 {
  static constexpr bool is_commutative = true;
  KOKKOS_FUNCTION Sums5 operator()(const Sums5& a, const Sums5& b) const {
    Sums5 r;
    for (int k = 0; k < 5; ++k) r.v[k] = a.v[k] + b.v[k];
    return r;
  }
  KOKKOS_FUNCTION Sums5 identity() const { return {{0, 0, 0, 0, 0}}; }
};

/// One shape of call: input element In, accumulator T, op, and whether the input is strided.
template <class In, class T, class Op, bool Strided = false>
struct Shape {
  using in = In;
  using value = T;
  using op = Op;
  static constexpr bool strided = Strided;
};
using WidenInt = Shape<std::int32_t, std::int64_t, kprim::Sum>;
using WidenFloat = Shape<float, double, kprim::Sum>;
using UserOpFloat = Shape<float, float, PlainAdd>;
using StructOp = Shape<Mat2, Mat2, MatProduct>;
using ComplexSum = Shape<Complex, Complex, kprim::Sum>;
using StridedWidenInt = Shape<std::int32_t, std::int64_t, kprim::Sum, true>;
using WideStruct = Shape<Sums5, Sums5, AddSums5>;

template <class S>
std::string shape_name() {
  if constexpr (std::is_same_v<S, WidenInt>) return "int32 -> int64 Sum";
  else if constexpr (std::is_same_v<S, WidenFloat>) return "float -> double Sum";
  else if constexpr (std::is_same_v<S, UserOpFloat>) return "float, user op a + b";
  else if constexpr (std::is_same_v<S, StructOp>) return "2x2 matrix product";
  else if constexpr (std::is_same_v<S, ComplexSum>) return "complex<double> Sum";
  else if constexpr (std::is_same_v<S, WideStruct>) return "40-byte struct sums";
  else return "strided int32 -> int64 Sum";
}

template <class Space, class S>
struct FastCase {
  using space = Space;
  using shape = S;
};
template <class Space, class Shapes>
struct cases_for_space;
template <class Space, class... Shapes>
struct cases_for_space<Space, std::tuple<Shapes...>> {
  using type = std::tuple<FastCase<Space, Shapes>...>;
};
template <class Spaces, class Shapes>
struct fast_cases;
template <class... Spaces, class Shapes>
struct fast_cases<std::tuple<Spaces...>, Shapes> {
  using type = tuple_cat_t<typename cases_for_space<Spaces, Shapes>::type...>;
};
using FastCases = typename fast_cases<
    Spaces, std::tuple<WidenInt, WidenFloat, UserOpFloat, StructOp, ComplexSum, StridedWidenInt, WideStruct>>::type;

/// Exact data: integers small enough that every sum and product of the test is exact in T.
template <class In>
std::vector<In> shape_input(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<In> v(n);
  for (auto& x : v) {
    if constexpr (std::is_same_v<In, std::int32_t>) x = std::int32_t(rng() % (std::uint64_t(1) << 30));  // sums need int64
    else if constexpr (std::is_same_v<In, float>) x = float(rng() % 2);  // float sums of 4M stay exact
    else if constexpr (std::is_same_v<In, Mat2>) x = {std::uint32_t(rng()), std::uint32_t(rng()), std::uint32_t(rng()), std::uint32_t(rng())};
    else if constexpr (std::is_same_v<In, Sums5>) x = {{std::int64_t(rng() % 100), 1, std::int64_t(rng() % 7), -2, 3}};
    else x = Complex(double(rng() % 1000), -double(rng() % 1000));
  }
  return v;
}

// Names of the Kokkos Tools regions pushed while a RegionLog lives.
std::vector<std::string> pushed_regions;
void record_region(const char* name) { pushed_regions.emplace_back(name); }

struct RegionLog {
  RegionLog() {
    pushed_regions.clear();
    Kokkos::Tools::Experimental::set_push_region_callback(record_region);
  }
  ~RegionLog() { Kokkos::Tools::Experimental::set_push_region_callback(nullptr); }
  RegionLog(const RegionLog&) = delete;
  RegionLog& operator=(const RegionLog&) = delete;
};

/// The call ran the hand-written CUDA kernels where Space has them (a reduce: for ops that declare
/// is_commutative; the others keep the input order on the portable kernels), and named its path.
template <class Space, bool Cuda = true>
void require_path(const char* function) {
  const std::string expected = std::string(function) + (runs_cuda_kernels_v<Space> && Cuda ? " [cuda]" : " [");
  INFO("regions pushed: " << pushed_regions.size() << (pushed_regions.empty() ? "" : ", last: " + pushed_regions.back()));
  REQUIRE(std::any_of(pushed_regions.begin(), pushed_regions.end(),
                      [&](const std::string& name) { return name.rfind(expected, 0) == 0; }));
  pushed_regions.clear();
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("application calls (wider accumulator, user op and type, complex, strided) take the fast path",
                        "[fast-path][reduce][scan]", FastCases) {
  using Space = typename TestType::space;
  using S = typename TestType::shape;
  using In = typename S::in;
  using T = typename S::value;
  using Op = typename S::op;
  using Memory = typename Space::memory_space;
  const Space space;
  const Op op;
  const T identity = kprim::identity_of<T>(op);
  const RegionLog log;
  for (const std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(33), std::int64_t(1000),
                               std::int64_t(100'003), std::int64_t(1'000'003), std::int64_t(4'000'037)}) {
    if (n > max_test_size()) continue;
    INFO(Space::name() << ", " << shape_name<S>() << ", n = " << n);
    const std::vector<In> host = shape_input<In>(n, 77 + n);
    // The input: contiguous, or every third element of a longer allocation (LayoutStride).
    using Input = std::conditional_t<S::strided, Kokkos::View<const In*, Kokkos::LayoutStride, Memory>,
                                     Kokkos::View<const In*, Memory>>;
    std::vector<In> stored = host;
    if constexpr (S::strided) {
      stored.assign(3 * host.size() + 1, In{});
      for (std::int64_t i = 0; i < n; ++i) stored[3 * i + 1] = host[i];
    }
    const auto storage = to_space(space, stored, "x");
    Input x;
    if constexpr (S::strided) x = Input(storage.data() + 1, Kokkos::LayoutStride(n, 3));
    else x = storage;

    // Host references: left-to-right folds in T.
    std::vector<T> inclusive(n), exclusive(n);
    T running = identity;
    for (std::int64_t i = 0; i < n; ++i) {
      exclusive[i] = running;
      running = op(running, T(host[i]));
      inclusive[i] = running;
    }

    // reduce into the accumulator type: the value on the host, and a rank-0 View.
    Kokkos::View<T, Memory> result("result");
    kprim::reduce(space, x, result, op);
    require_path<Space, kprim::is_commutative_v<Op>>("kprim::reduce");
    REQUIRE(to_host(Kokkos::View<T*, Memory>(result.data(), 1))[0] == running);

    // Scans into T, with the total; exclusive from the identity, the CRS-offsets pattern: n + 1
    // offsets, the total written to the last one.
    Kokkos::View<T*, Memory> offsets("offsets", n + 1);
    const auto first_n = Kokkos::subview(offsets, Kokkos::pair<std::int64_t, std::int64_t>(0, n));
    constexpr bool cuda_scan = sizeof(T) <= 16 && 16 % sizeof(T) == 0;  // scans: accumulators of 1-16 bytes
    kprim::exclusive_scan(space, x, first_n, identity, Kokkos::subview(offsets, n), op);
    require_path<Space, cuda_scan>("kprim::exclusive_scan");
    std::vector<T> expected_offsets = exclusive;
    expected_offsets.push_back(running);
    REQUIRE(to_host(offsets) == expected_offsets);

    Kokkos::View<T*, Memory> out("out", n);
    kprim::inclusive_scan(space, x, out, op);
    require_path<Space, cuda_scan>("kprim::inclusive_scan");
    REQUIRE(to_host(out) == inclusive);

    if constexpr (std::is_same_v<Op, kprim::Sum> && !std::is_same_v<In, Complex>) {
      // dot in the accumulator type over the input type: products of small integers stay exact.
      std::vector<In> other(n);
      for (std::int64_t i = 0; i < n; ++i) other[i] = In(i % 3);
      const auto y = to_space(space, other, "y");
      T expected_dot = 0;
      for (std::int64_t i = 0; i < n; ++i) expected_dot += T(host[i]) * T(other[i]);
      const T got = kprim::dot<T>(space, x, y);
      require_path<Space>("kprim::dot");
      REQUIRE(got == expected_dot);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("automatic with a tuning is refused where the hand-written CUDA kernels run", "[fast-path][errors]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const auto x = to_space(space, std::vector<double>(1000, 1.0), "x");
  const kprim::Tuning tuning{.items_per_thread = 4};  // valid on every space
  if constexpr (runs_cuda_kernels_v<Space>) {
    REQUIRE_THROWS_WITH(kprim::reduce(space, x, kprim::Sum{}, {.tuning = tuning}),
                        Catch::Matchers::StartsWith("kprim::reduce: tuning applies to the portable kernels") &&
                            Catch::Matchers::ContainsSubstring("tree"));
    REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, x, x, kprim::Sum{}, {.tuning = tuning}),
                        Catch::Matchers::StartsWith("kprim::inclusive_scan: tuning applies to the portable kernels"));
  }
  // A named portable algorithm takes the tuning everywhere.
  REQUIRE(kprim::reduce(space, x, kprim::Sum{}, kprim::ReduceWith<kprim::ReduceAlgorithm::tree>{.tuning = tuning}) ==
          1000.0);
}
