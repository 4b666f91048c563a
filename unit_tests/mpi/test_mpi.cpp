// kprim::mpi (issue #7): every rank checks its part of a distributed reduce, dot or scan against a
// serial reference over the concatenated array, which every rank builds from the same seed.
// Decompositions: even, growing, empty ranks (first, every other, all but the last, all).
// Run by CTest under mpiexec with 1, 2, 3 and 4 ranks.

#include "../test_support.hpp"

#include <kprim/mpi.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace kprim_test;

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

/// How a global array of n elements is split over the ranks.
enum class Layout { even, growing, first_empty, every_other_empty, last_only };
const Layout all_layouts[] = {Layout::even, Layout::growing, Layout::first_empty, Layout::every_other_empty,
                              Layout::last_only};

const char* to_string(Layout layout) {
  switch (layout) {
    case Layout::even: return "even";
    case Layout::growing: return "growing";
    case Layout::first_empty: return "first_empty";
    case Layout::every_other_empty: return "every_other_empty";
    case Layout::last_only: return "last_only";
  }
  return "?";
}

/// Each rank's share of n: weights per rank, n split in proportion, the remainder to the last
/// rank with a positive weight.
std::vector<std::int64_t> local_sizes(Layout layout, std::int64_t n, int ranks) {
  std::vector<std::int64_t> weight(ranks, 1);
  for (int r = 0; r < ranks; ++r) {
    if (layout == Layout::growing) weight[r] = r + 1;
    if (layout == Layout::first_empty && r == 0 && ranks > 1) weight[r] = 0;
    if (layout == Layout::every_other_empty && r % 2 == 1) weight[r] = 0;
    if (layout == Layout::last_only && r != ranks - 1) weight[r] = 0;
  }
  const std::int64_t total_weight = std::accumulate(weight.begin(), weight.end(), std::int64_t(0));
  std::vector<std::int64_t> size(ranks, 0);
  std::int64_t given = 0;
  int last = 0;
  for (int r = 0; r < ranks; ++r) {
    size[r] = n * weight[r] / total_weight;
    given += size[r];
    if (weight[r] > 0) last = r;
  }
  size[last] += n - given;
  return size;
}

/// This rank's [begin, end) of the global array.
std::pair<std::int64_t, std::int64_t> my_range(Layout layout, std::int64_t n) {
  const auto size = local_sizes(layout, n, world_size());
  const int rank = world_rank();
  const std::int64_t begin = std::accumulate(size.begin(), size.begin() + rank, std::int64_t(0));
  return {begin, begin + size[rank]};
}

std::vector<std::int64_t> global_sizes() {
  std::vector<std::int64_t> list{0, 1, 2, 5, 33, 1000, 4099, 100'003};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

template <class T>
std::vector<T> slice(const std::vector<T>& all, std::pair<std::int64_t, std::int64_t> range) {
  return std::vector<T>(all.begin() + range.first, all.begin() + range.second);
}

template <class T, class Op>
T serial_reduce(const std::vector<T>& data, const Op& op) {
  T acc = kprim::identity_of<T>(op);
  for (const T& v : data) acc = op(acc, v);
  return acc;
}

template <class T, class Op>
std::vector<T> serial_scan(const std::vector<T>& data, bool exclusive, const T& init, const Op& op) {
  std::vector<T> out(data.size());
  T acc = exclusive ? init : kprim::identity_of<T>(op);
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (exclusive) {
      out[i] = acc;
      acc = op(acc, data[i]);
    } else {
      out[i] = acc = op(acc, data[i]);
    }
  }
  return out;
}

/// The same bytes on every rank (checked with an all-gather of the value).
template <class T>
bool same_on_every_rank(const T& value) {
  std::vector<unsigned char> all(sizeof(T) * std::size_t(world_size()));
  MPI_Allgather(&value, int(sizeof(T)), MPI_BYTE, all.data(), int(sizeof(T)), MPI_BYTE, MPI_COMM_WORLD);
  for (int r = 0; r < world_size(); ++r)
    if (std::memcmp(all.data() + std::size_t(r) * sizeof(T), &value, sizeof(T)) != 0) return false;
  return true;
}

// ---- non-built-in ops (Mat2, MatMulMod: test_support.hpp) -----------------------------------

/// The same product with the modulus as state: crosses ranks through a gather of the rank totals.
struct MatMulModulo {
  std::int64_t p;
  KOKKOS_FUNCTION Mat2 identity() const { return {}; }
  KOKKOS_FUNCTION Mat2 operator()(const Mat2& x, const Mat2& y) const { return multiply_mod(x, y, p); }
};

template <class Space, class T, class Op>
void check_user_op(const Space& space, const Op& op) {
  for (const Layout layout : all_layouts)
    for (const std::int64_t n : global_sizes()) {
      INFO(Space::name() << ", " << to_string(layout) << ", n " << n << ", " << world_size() << " ranks, rank "
                         << world_rank());
      const std::vector<T> all = random_matrices(n, 7000 + std::uint64_t(n));
      const auto range = my_range(layout, n);
      const auto in = to_space(space, slice(all, range), "in");
      Kokkos::View<T*, typename Space::memory_space> out("out", in.extent(0));

      CHECK(kprim::mpi::reduce(space, MPI_COMM_WORLD, in, op) == serial_reduce(all, op));
      kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, in, out, op);
      space.fence();
      CHECK(first_mismatch(to_host(out), slice(serial_scan(all, false, T{}, op), range)) == -1);
      const T init{3, 1, 4, 1};
      kprim::mpi::exclusive_scan(space, MPI_COMM_WORLD, in, out, init, op);
      space.fence();
      CHECK(first_mismatch(to_host(out), slice(serial_scan(all, true, init, op), range)) == -1);
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("distributed reduce matches a serial reduce of the whole array", "[mpi][reduce]",
                        SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  const Op op;
  for (const auto determinism : {kprim::Determinism::fastest, kprim::Determinism::bitwise})
    for (const Layout layout : all_layouts)
      for (const std::int64_t n : global_sizes()) {
        INFO(case_name<TestType>() << ", " << kprim::to_string(determinism) << ", " << to_string(layout) << ", n "
                                   << n << ", " << world_size() << " ranks, rank " << world_rank());
        const std::vector<T> all = exact_input<T, Op>(n, 100 + std::uint64_t(n));
        const auto in = to_space(space, slice(all, my_range(layout, n)), "in");
        kprim::ReduceOptions options;
        options.determinism = determinism;
        const T got = kprim::mpi::reduce(space, MPI_COMM_WORLD, in, op, options);
        CHECK(got == serial_reduce(all, op));
        CHECK(same_on_every_rank(got));
      }
}

TEMPLATE_LIST_TEST_CASE("distributed scans continue the previous rank's output", "[mpi][scan]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  const Op op;
  const T init = exact_init<T, Op>();
  for (const auto determinism : {kprim::Determinism::fastest, kprim::Determinism::bitwise})
    for (const Layout layout : all_layouts)
      for (const std::int64_t n : global_sizes()) {
        INFO(case_name<TestType>() << ", " << kprim::to_string(determinism) << ", " << to_string(layout) << ", n "
                                   << n << ", " << world_size() << " ranks, rank " << world_rank());
        const std::vector<T> all = exact_input<T, Op>(n, 200 + std::uint64_t(n));
        const auto range = my_range(layout, n);
        const auto in = to_space(space, slice(all, range), "in");
        Kokkos::View<T*, typename Space::memory_space> out("out", in.extent(0));
        kprim::ScanOptions options;
        options.determinism = determinism;

        kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, in, out, op, options);
        space.fence();
        CHECK(first_mismatch(to_host(out), slice(serial_scan(all, false, init, op), range)) == -1);

        kprim::mpi::exclusive_scan(space, MPI_COMM_WORLD, in, out, init, op, options);
        space.fence();
        CHECK(first_mismatch(to_host(out), slice(serial_scan(all, true, init, op), range)) == -1);

        // In place, and on the View's default instance.
        kprim::mpi::exclusive_scan(MPI_COMM_WORLD, in, in, init, op, options);
        Kokkos::fence();
        CHECK(first_mismatch(to_host(in), slice(serial_scan(all, true, init, op), range)) == -1);
      }
}

TEMPLATE_LIST_TEST_CASE("distributed dot and accumulator types", "[mpi][dot]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  for (const Layout layout : all_layouts)
    for (const std::int64_t n : global_sizes()) {
      INFO(Space::name() << ", " << to_string(layout) << ", n " << n << ", " << world_size() << " ranks, rank "
                         << world_rank());
      const auto range = my_range(layout, n);
      // Small integers in doubles: every partial sum is exact, so any order gives the same value.
      const std::vector<double> x = exact_input<double, kprim::Sum>(n, 300 + std::uint64_t(n));
      const std::vector<double> y = exact_input<double, kprim::Sum>(n, 400 + std::uint64_t(n));
      double expected = 0;
      for (std::int64_t i = 0; i < n; ++i) expected += x[i] * y[i];
      const auto xs = to_space(space, slice(x, range), "x");
      const auto ys = to_space(space, slice(y, range), "y");
      CHECK(kprim::mpi::dot(space, MPI_COMM_WORLD, xs, ys) == expected);
      CHECK(kprim::mpi::dot<double>(space, MPI_COMM_WORLD, xs, ys) == expected);

      // int32 values whose sum overflows int32 but not the int64 accumulator.
      std::vector<std::int32_t> big(n, 2'000'000'000);
      const auto bigs = to_space(space, slice(big, range), "big");
      CHECK(kprim::mpi::reduce<std::int64_t>(space, MPI_COMM_WORLD, bigs) == std::int64_t(2'000'000'000) * n);
      CHECK(kprim::mpi::reduce<std::int64_t>(MPI_COMM_WORLD, bigs) == std::int64_t(2'000'000'000) * n);
    }
}

TEMPLATE_LIST_TEST_CASE("non-commutative ops keep rank order across ranks", "[mpi][user_ops]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  check_user_op<Space, Mat2>(space, MatMulMod{});           // MPI_Op made from the op
  check_user_op<Space, Mat2>(space, MatMulModulo{999'983});  // gathered rank totals
}

TEMPLATE_LIST_TEST_CASE("floating Min and Max propagate a NaN from any rank", "[mpi][float]", SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  const int ranks = world_size();
  for (int nan_rank = 0; nan_rank < ranks; ++nan_rank) {
    INFO(case_name<TestType>() << ", NaN on rank " << nan_rank << " of " << ranks << ", rank " << world_rank());
    std::vector<T> local{T(1), T(-2), T(3)};
    if (world_rank() == nan_rank) local[1] = std::numeric_limits<T>::quiet_NaN();
    const auto in = to_space(space, local, "in");
    CHECK(std::isnan(kprim::mpi::reduce(space, MPI_COMM_WORLD, in, kprim::Min{})));
    CHECK(std::isnan(kprim::mpi::reduce(space, MPI_COMM_WORLD, in, kprim::Max{})));
    Kokkos::View<T*, typename Space::memory_space> out("out", 3);
    kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, in, out, kprim::Max{});
    const auto got = to_host(out);
    // Before the NaN everything is a number; from it on, NaN.
    for (int i = 0; i < 3; ++i) {
      const bool after_nan = world_rank() > nan_rank || (world_rank() == nan_rank && i >= 1);
      CHECK(std::isnan(got[i]) == after_nan);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("bitwise determinism gives the same bits on every rank and every run", "[mpi][determinism]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  // Values whose sum depends on the order: only a fixed order gives the same bits twice.
  std::mt19937_64 rng(500 + std::uint64_t(world_rank()));
  std::vector<T> local(10'000 + 777 * std::size_t(world_rank()));
  for (auto& v : local) v = T(std::uniform_real_distribution<double>(-1, 1)(rng) * std::exp2(double(rng() % 40)));
  const auto in = to_space(space, local, "in");
  kprim::ReduceOptions options;
  options.determinism = kprim::Determinism::bitwise;
  const T first = kprim::mpi::reduce(space, MPI_COMM_WORLD, in, kprim::Sum{}, options);
  CHECK(same_on_every_rank(first));
  for (int run = 0; run < 3; ++run) {
    const T again = kprim::mpi::reduce(space, MPI_COMM_WORLD, in, kprim::Sum{}, options);
    CHECK(std::memcmp(&again, &first, sizeof(T)) == 0);
  }
  // The documented order: each rank's bitwise reduce, folded over the ranks in rank order.
  const T mine = kprim::reduce(space, in, kprim::Sum{}, options);
  std::vector<T> totals(world_size());
  MPI_Allgather(&mine, int(sizeof(T)), MPI_BYTE, totals.data(), int(sizeof(T)), MPI_BYTE, MPI_COMM_WORLD);
  T folded = totals[0];
  for (std::size_t r = 1; r < totals.size(); ++r) folded = folded + totals[r];
  CHECK(std::memcmp(&folded, &first, sizeof(T)) == 0);
}

TEMPLATE_LIST_TEST_CASE("bad arguments are refused before any communication", "[mpi][errors]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  Kokkos::View<double*, typename Space::memory_space> a("a", 10), b("b", 9);
  const auto message_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const kprim::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  // Every rank refuses (the same bad call everywhere), so none waits in a collective.
  CHECK_THAT(message_of([&] { (void)kprim::mpi::reduce(space, MPI_COMM_NULL, a); }),
             Catch::Matchers::ContainsSubstring("kprim::mpi::reduce: the communicator is MPI_COMM_NULL"));
  CHECK_THAT(message_of([&] { kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, a, b); }),
             Catch::Matchers::ContainsSubstring("kprim::mpi::inclusive_scan: output extent 9 != input extent 10"));
  CHECK_THAT(message_of([&] { kprim::mpi::exclusive_scan(space, MPI_COMM_WORLD, a, Kokkos::subview(a, std::pair(1, 10)), 0.0); }),
             Catch::Matchers::ContainsSubstring("kprim::mpi::exclusive_scan"));
  CHECK_THAT(message_of([&] { (void)kprim::mpi::dot(space, MPI_COMM_WORLD, a, b); }),
             Catch::Matchers::ContainsSubstring("kprim::mpi::dot: extent of y 9 != extent of x 10"));
  kprim::ScanOptions lookback;
  lookback.algorithm = kprim::ScanAlgorithm::decoupled_lookback;
  lookback.determinism = kprim::Determinism::bitwise;
  CHECK_THAT(message_of([&] { kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, a, a, kprim::Sum{}, lookback); }),
             Catch::Matchers::ContainsSubstring("kprim::mpi::inclusive_scan: determinism = bitwise"));
  // The communicator still works afterwards.
  Kokkos::deep_copy(a, 1.0);
  CHECK(kprim::mpi::reduce(space, MPI_COMM_WORLD, a) == 10.0 * world_size());
}

// The communicator-first order of the 0.1.0 development builds still compiles and gives the same
// results for one release; it is deprecated, so this test silences the warning it is about.
#if defined(__NVCC__)
#pragma nv_diag_suppress 1215, 1444
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEMPLATE_LIST_TEST_CASE("the deprecated communicator-first order forwards to the space-first calls", "[mpi]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  using View = Kokkos::View<std::int32_t*, typename Space::memory_space>;
  const Space space;
  const std::int64_t n = 1000 + world_rank();
  const View x("x", n), old_out("old_out", n), new_out("new_out", n);
  Kokkos::deep_copy(x, 3);
  CHECK(kprim::mpi::reduce(MPI_COMM_WORLD, space, x) == kprim::mpi::reduce(space, MPI_COMM_WORLD, x));
  CHECK(kprim::mpi::reduce<std::int64_t>(MPI_COMM_WORLD, space, x, kprim::Max{}) == 3);
  CHECK(kprim::mpi::dot(MPI_COMM_WORLD, space, x, x) == kprim::mpi::dot(space, MPI_COMM_WORLD, x, x));
  CHECK(kprim::mpi::dot<double>(MPI_COMM_WORLD, space, x, x) == kprim::mpi::dot<double>(space, MPI_COMM_WORLD, x, x));
  kprim::mpi::inclusive_scan(MPI_COMM_WORLD, space, x, old_out);
  kprim::mpi::inclusive_scan(space, MPI_COMM_WORLD, x, new_out);
  CHECK(first_mismatch(to_host(old_out), to_host(new_out)) == -1);
  kprim::mpi::exclusive_scan(MPI_COMM_WORLD, space, x, old_out, 5, kprim::Sum{});
  kprim::mpi::exclusive_scan(space, MPI_COMM_WORLD, x, new_out, 5);
  CHECK(first_mismatch(to_host(old_out), to_host(new_out)) == -1);
  std::int64_t before = 0;  // ranks below this one hold 1000 + r elements of 3 each
  for (int r = 0; r < world_rank(); ++r) before += 3 * (1000 + r);
  CHECK(to_host(new_out)[0] == std::int32_t(5 + before));
}
#pragma GCC diagnostic pop
