// Determinism::bitwise: the same bits for every team size and tile count on every space, equal
// to a serial implementation of the documented order, and to the golden file made on the CPU.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using namespace kprim_test;

namespace {

constexpr kprim::ReduceOptions bitwise_reduce{.determinism = kprim::Determinism::bitwise};
constexpr kprim::ScanOptions bitwise_scan{.determinism = kprim::Determinism::bitwise};

/// The bits of a value, for comparisons that tell -0.0 from 0.0 and NaN from NaN.
template <class T>
std::uint64_t bits_of(const T& value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

/// FNV-1a over the bits of a whole output.
template <class T>
std::uint64_t hash_of(const std::vector<T>& values) {
  std::uint64_t hash = 1469598103934665603ull;
  for (const T& v : values) {
    const std::uint64_t bits = bits_of(v);
    for (std::size_t b = 0; b < sizeof(T); ++b) hash = (hash ^ ((bits >> (8 * b)) & 0xff)) * 1099511628211ull;
  }
  return hash;
}

/// Values whose sums depend on the order: signs mixed, magnitudes over 24 binades. Built from the
/// generator's bits only, so every machine makes the same input.
template <class T>
std::vector<T> order_sensitive_input(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> data(n);
  for (auto& v : data) {
    const double unit = double(rng() >> 11) * 0x1p-53;
    v = T(std::ldexp(2 * unit - 1, int(rng() % 24) - 12));
  }
  return data;
}

// ---- the documented order, serially ----------------------------------------------------------

constexpr std::int64_t leaf_size = 8;

/// Every level of the tree: level 0 the leaves (8 elements folded left to right), level l + 1
/// pairs (2i, 2i + 1) of level l, a lone left child carried up as it is.
template <class T, class Op>
std::vector<std::vector<T>> reference_tree(const std::vector<T>& x, const Op& op) {
  std::vector<std::vector<T>> levels(1);
  for (std::size_t first = 0; first < x.size(); first += leaf_size) {
    T leaf = x[first];
    for (std::size_t i = first + 1; i < std::min(x.size(), first + leaf_size); ++i) leaf = op(leaf, x[i]);
    levels[0].push_back(leaf);
  }
  while (levels.back().size() > 1) {
    const std::vector<T>& below = levels.back();
    std::vector<T> here;
    for (std::size_t i = 0; i < below.size(); i += 2) here.push_back(i + 1 < below.size() ? op(below[i], below[i + 1]) : below[i]);
    levels.push_back(std::move(here));
  }
  return levels;
}

template <class T, class Op>
T reference_reduce(const std::vector<T>& x, const Op& op) {
  return x.empty() ? kprim::identity_of<T>(op) : reference_tree(x, op).back()[0];
}

/// Leaf J starts from the nodes covering leaves [0, J), largest first (the binary digits of J),
/// after the exclusive scan's init; then runs through its elements. Returns the output and the
/// value after the last element (the total).
template <class T, class Op>
std::pair<std::vector<T>, T> reference_scan(const std::vector<T>& x, bool exclusive, T init, const Op& op) {
  std::vector<T> out(x.size());
  if (x.empty()) return {out, exclusive ? init : kprim::identity_of<T>(op)};
  const auto levels = reference_tree(x, op);
  T running{};
  for (std::size_t leaf = 0; leaf < levels[0].size(); ++leaf) {
    bool has = exclusive;
    running = init;
    std::size_t covered = 0;
    for (std::size_t level = levels.size(); level-- > 0;) {
      if ((leaf >> level) & 1) {
        const T& node = levels[level][covered >> level];
        running = has ? op(running, node) : node;
        has = true;
        covered += std::size_t(1) << level;
      }
    }
    for (std::size_t i = leaf * leaf_size; i < std::min(x.size(), (leaf + 1) * leaf_size); ++i) {
      if (exclusive) out[i] = running;
      running = has ? op(running, x[i]) : x[i];
      has = true;
      if (!exclusive) out[i] = running;
    }
  }
  return {out, running};
}

// ---- what one call gives -------------------------------------------------------------------

/// The bits of reduce, dot, both scans (output hash and total) for one input and options.
struct Outcome {
  std::uint64_t reduce, dot, inclusive, inclusive_total, exclusive, exclusive_total;
  bool operator==(const Outcome&) const = default;
};

template <class Space, class T>
Outcome run_all(const Space& space, const std::vector<T>& host_x, const std::vector<T>& host_y,
                const kprim::Tuning& tuning) {
  const auto x = to_space(space, host_x, "x");
  const auto y = to_space(space, host_y, "y");
  Kokkos::View<T*, typename Space::memory_space> out("out", host_x.size());
  Kokkos::View<T, Kokkos::HostSpace> total("total");
  Outcome o{};
  kprim::ReduceOptions reduce_options = bitwise_reduce;
  reduce_options.tuning = tuning;
  kprim::ScanOptions scan_options = bitwise_scan;
  scan_options.tuning = tuning;
  o.reduce = bits_of(kprim::reduce(space, x, kprim::Sum{}, reduce_options));
  o.dot = bits_of(kprim::dot(space, x, y, reduce_options));
  kprim::inclusive_scan(space, x, out, total, kprim::Sum{}, scan_options);
  space.fence();
  o.inclusive = hash_of(to_host(out));
  o.inclusive_total = bits_of(total());
  kprim::exclusive_scan(space, x, out, T(0.375), total, kprim::Sum{}, scan_options);
  space.fence();
  o.exclusive = hash_of(to_host(out));
  o.exclusive_total = bits_of(total());
  return o;
}

template <class T>
Outcome reference_all(const std::vector<T>& x, const std::vector<T>& y) {
  std::vector<T> products(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) products[i] = x[i] * y[i];
  const kprim::Sum sum;
  const auto [inclusive, inclusive_total] = reference_scan(x, false, T(0), sum);
  const auto [exclusive, exclusive_total] = reference_scan(x, true, T(0.375), sum);
  return {bits_of(reference_reduce(x, sum)), bits_of(reference_reduce(products, sum)), hash_of(inclusive),
          bits_of(inclusive_total), hash_of(exclusive), bits_of(exclusive_total)};
}

/// Sizes around the leaf (8), the tile (2048 = 256 leaves) and a tile of tiles, and one past 2^24.
std::vector<std::int64_t> determinism_sizes() {
  std::vector<std::int64_t> list{0, 1, 7, 8, 9, 2047, 2048, 2049, 100'003, 524'287, 524'289, 1'000'003, 16'777'259};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

/// Team sizes the space runs, from 1 up (odd ones included), and tile counts per launch.
template <class Space>
std::vector<int> team_sizes(const Space& space) {
  std::vector<int> list;
  for (const int size : {1, 2, 3, 32, 33, 64, 256, 1024})
    if (size <= max_team_size(space)) list.push_back(size);
  return list;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("bitwise results are the documented order's, for every team size and tile count",
                        "[determinism]", SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  const Space space;
  for (const std::int64_t n : determinism_sizes()) {
    const std::vector<T> x = order_sensitive_input<T>(n, 11 + n);
    const std::vector<T> y = order_sensitive_input<T>(n, 12 + n);
    const Outcome expected = reference_all(x, y);
    // The default tuning first (the hand-written CUDA path where it exists), then the portable
    // kernels with every team size and several tile counts per launch.
    std::vector<kprim::Tuning> tunings{{}};
    for (const int team_size : team_sizes(space))
      for (const int max_teams : {0, 1, 3, 7}) tunings.push_back({team_size, 0, max_teams});
    for (const kprim::Tuning& tuning : tunings) {
      INFO(case_name<TestType>() << ", n = " << n << ", " << describe(tuning));
      REQUIRE(run_all(space, x, y, tuning) == expected);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("bitwise results repeat run after run", "[determinism]", SpaceFloat) {
  using T = typename TestType::value;
  const typename TestType::space space;
  const std::int64_t n = std::min<std::int64_t>(3'000'017, max_test_size());
  const std::vector<T> x = order_sensitive_input<T>(n, 5), y = order_sensitive_input<T>(n, 6);
  const Outcome first = run_all(space, x, y, {});
  for (int run = 0; run < 5; ++run) REQUIRE(run_all(space, x, y, {}) == first);
}

TEMPLATE_LIST_TEST_CASE("bitwise results do not depend on how the data is laid out", "[determinism]",
                        SpaceFloat) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using memory = typename Space::memory_space;
  const Space space;
  // Sizes around a leaf, a tile and a CUDA scan block (4 float / 2 double tiles of 2048).
  for (const std::int64_t n : {0, 1, 9, 2047, 2049, 4097, 8191, 8193, 100'003}) {
    if (n > max_test_size()) continue;
    const std::vector<T> host_x = order_sensitive_input<T>(n, 21 + n);
    const Outcome expected = reference_all(host_x, host_x);
    // Column 0 of an n x 2 array (stride 2), and a View that starts one element into its
    // allocation (not 16-byte aligned): the CUDA path moves neither in vectors.
    Kokkos::View<T**, Kokkos::LayoutRight, memory> pairs("pairs", n, 2);
    const auto column = Kokkos::subview(pairs, Kokkos::ALL, 0);
    Kokkos::deep_copy(column, to_space(space, host_x, "x"));
    Kokkos::View<T*, memory> shifted_x("shifted_x", n + 1), shifted_out("shifted_out", n + 1);
    const auto unaligned = Kokkos::subview(shifted_x, std::pair<std::int64_t, std::int64_t>(1, n + 1));
    const auto unaligned_out = Kokkos::subview(shifted_out, std::pair<std::int64_t, std::int64_t>(1, n + 1));
    Kokkos::deep_copy(unaligned, to_space(space, host_x, "x"));
    Kokkos::View<T*, memory> out("out", n);
    Kokkos::View<T, Kokkos::HostSpace> total("total");
    const auto check = [&](const auto& x, const auto& y) {
      INFO(case_name<TestType>() << ", n = " << n);
      REQUIRE(bits_of(kprim::reduce(space, x, kprim::Sum{}, bitwise_reduce)) == expected.reduce);
      kprim::inclusive_scan(space, x, y, total, kprim::Sum{}, bitwise_scan);
      space.fence();
      REQUIRE(hash_of(to_host(y)) == expected.inclusive);
      REQUIRE(bits_of(total()) == expected.inclusive_total);
      kprim::exclusive_scan(space, x, y, T(0.375), total, kprim::Sum{}, bitwise_scan);
      space.fence();
      REQUIRE(hash_of(to_host(y)) == expected.exclusive);
      REQUIRE(bits_of(total()) == expected.exclusive_total);
    };
    check(column, out);
    check(unaligned, unaligned_out);
  }
}

TEMPLATE_LIST_TEST_CASE("bitwise order keeps non-commutative ops exact, and signed zeros", "[determinism]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  // Exact integers in doubles with Min: the order decides which zero comes out of min(-0.0, 0.0).
  std::vector<double> zeros(5000, 0.0);
  for (std::size_t i = 0; i < zeros.size(); i += 3) zeros[i] = -0.0;
  const auto x = to_space(space, zeros, "zeros");
  const double expected = reference_reduce(zeros, kprim::Min{});
  for (const int team_size : team_sizes(space))
    REQUIRE(bits_of(kprim::reduce(space, x, kprim::Min{}, {.tuning = {team_size, 0, 0},
                                                           .determinism = kprim::Determinism::bitwise})) ==
            bits_of(expected));
  REQUIRE(bits_of(kprim::reduce(space, x, kprim::Min{}, bitwise_reduce)) == bits_of(expected));
  // Integer Sum is exact in any order: bitwise mode takes the fast path and gives the exact sum.
  const std::vector<std::int32_t> ints = exact_input<std::int32_t, kprim::Sum>(100'003, 3);
  const auto xi = to_space(space, ints, "ints");
  REQUIRE(kprim::reduce(space, xi, kprim::Sum{}, bitwise_reduce) == std::reduce(ints.begin(), ints.end()));
}

TEMPLATE_LIST_TEST_CASE("bitwise mode refuses a named algorithm", "[determinism][errors]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const auto x = to_space(space, std::vector<double>(10, 1.0), "x");
  Kokkos::View<double*, typename Space::memory_space> out("out", 10);
  REQUIRE_THROWS_WITH(kprim::reduce(space, x, kprim::Sum{},
                                    {.algorithm = kprim::ReduceAlgorithm::tree,
                                     .determinism = kprim::Determinism::bitwise}),
                      Catch::Matchers::StartsWith("kprim::reduce: ") && Catch::Matchers::ContainsSubstring("bitwise"));
  REQUIRE_THROWS_WITH(kprim::inclusive_scan(space, x, out, kprim::Sum{},
                                            {.algorithm = kprim::ScanAlgorithm::blelloch,
                                             .determinism = kprim::Determinism::bitwise}),
                      Catch::Matchers::StartsWith("kprim::inclusive_scan: ") &&
                          Catch::Matchers::ContainsSubstring("bitwise"));
}

// ---- the golden file -------------------------------------------------------------------------

namespace {

std::string golden_path() {
  const char* path = std::getenv("KPRIM_GOLDEN_FILE");
  return path ? path : KPRIM_GOLDEN_FILE;
}

template <class T>
std::vector<std::pair<std::string, std::uint64_t>> golden_lines(std::int64_t n, const Outcome& o) {
  const std::string key = type_name<T>() + " " + std::to_string(n) + " ";
  return {{key + "reduce", o.reduce},
          {key + "dot", o.dot},
          {key + "inclusive_scan", o.inclusive},
          {key + "inclusive_total", o.inclusive_total},
          {key + "exclusive_scan", o.exclusive},
          {key + "exclusive_total", o.exclusive_total}};
}

}  // namespace

// KPRIM_WRITE_GOLDEN=1 rewrites the file from this run (made on the CPU; every other space
// must then match it bit for bit).
TEMPLATE_LIST_TEST_CASE("bitwise results match the golden file made on the CPU", "[determinism][golden]",
                        SpaceOnly) {
  const typename TestType::space space;
  std::map<std::string, std::uint64_t> golden;
  if (!std::getenv("KPRIM_WRITE_GOLDEN")) {
    std::ifstream file(golden_path());
    INFO("golden file " << golden_path());
    REQUIRE(file.good());
    std::string line;
    while (std::getline(file, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto cut = line.rfind(' ');
      golden[line.substr(0, cut)] = std::stoull(line.substr(cut + 1), nullptr, 16);
    }
  }
  std::ostringstream written;
  written << "# Determinism::bitwise results (hex bits; scans: FNV-1a of the output bits) for\n"
             "# unit_tests/test_determinism.cpp's inputs. Made on the CPU; checked on every space.\n";
  const auto check = [&](auto tag) {
    using T = decltype(tag);
    for (const std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(2049), std::int64_t(1'000'003),
                                 std::int64_t(16'777'259)}) {
      const bool written_out = std::getenv("KPRIM_WRITE_GOLDEN") != nullptr;
      if (n > max_test_size()) {
        WARN("golden sizes above KPRIM_TEST_MAX_N skipped: n = " << n);
        REQUIRE_FALSE(written_out);  // the file must hold every size
        continue;
      }
      const Outcome got = run_all(space, order_sensitive_input<T>(n, 11 + n), order_sensitive_input<T>(n, 12 + n),
                                  {});
      for (const auto& [key, value] : golden_lines<T>(n, got)) {
        INFO(TestType::space::name() << ": " << key);
        if (written_out) {
          written << key << " " << std::hex << value << std::dec << "\n";
        } else {
          REQUIRE(golden.count(key) == 1);
          REQUIRE(golden[key] == value);
        }
      }
    }
  };
  check(float{});
  check(double{});
  if (std::getenv("KPRIM_WRITE_GOLDEN")) std::ofstream(golden_path()) << written.str();
}
