#pragma once
// Shared pieces of the robustness tests (issue #6): every way a call can be configured, and
// outputs surrounded by guard elements that must never change.

#include "../test_support.hpp"

#include <cstring>

namespace kprim_test {

/// A small tuning that forces several tiles, passes and recursion levels on small inputs, with a
/// power-of-two team so every reduce rung accepts it.
template <class Space>
kprim::Tuning small_tuning(const Space& space) {
  int team = 1;
  while (team * 2 <= std::min(max_team_size(space), 32)) team *= 2;
  return {team, 3, 2};
}

/// Every reduce configuration a user can ask for: each algorithm with the default tuning and with
/// small_tuning, and Determinism::bitwise (both tunings). Configurations an algorithm refuses for
/// the space's default team are left out (test_errors checks the refusal).
template <class Space>
std::vector<kprim::AnyAlgorithm<kprim::ReduceOptions>> reduce_variants(const Space& space) {
  std::vector<kprim::AnyAlgorithm<kprim::ReduceOptions>> list;
  for (const auto algorithm : algorithms<kprim::ReduceAlgorithm>())
    for (const kprim::Tuning tuning : {kprim::Tuning{}, small_tuning(space)}) {
      // A tuned `automatic` where it runs the CUDA kernels is refused by design (test_errors);
      // the portable algorithm it names is in the list already.
      if (algorithm == kprim::ReduceAlgorithm::automatic &&
          automatic_for<kprim::ReduceAlgorithm>(space, tuning) != algorithm)
        continue;
      const auto [team, tile] = team_and_tile(space, tuning, false);
      if (!refuses(algorithm, team)) list.push_back(kprim::any_algorithm({algorithm, tuning, kprim::Determinism::fastest}));
    }
  list.push_back(kprim::any_algorithm({kprim::ReduceAlgorithm::automatic, {}, kprim::Determinism::bitwise}));
  list.push_back(
      kprim::any_algorithm({kprim::ReduceAlgorithm::automatic, small_tuning(space), kprim::Determinism::bitwise}));
  return list;
}

/// As reduce_variants, for scans.
template <class Space>
std::vector<kprim::AnyAlgorithm<kprim::ScanOptions>> scan_variants(const Space& space) {
  std::vector<kprim::AnyAlgorithm<kprim::ScanOptions>> list;
  for (const auto algorithm : algorithms<kprim::ScanAlgorithm>())
    for (const kprim::Tuning tuning : {kprim::Tuning{}, small_tuning(space)})
      if (algorithm != kprim::ScanAlgorithm::automatic ||
          automatic_for<kprim::ScanAlgorithm>(space, tuning) == algorithm)  // as in reduce_variants
        list.push_back(kprim::any_algorithm({algorithm, tuning, kprim::Determinism::fastest}));
  list.push_back(kprim::any_algorithm({kprim::ScanAlgorithm::automatic, {}, kprim::Determinism::bitwise}));
  list.push_back(
      kprim::any_algorithm({kprim::ScanAlgorithm::automatic, small_tuning(space), kprim::Determinism::bitwise}));
  return list;
}

template <class Options>
std::string describe(const Options& options) {
  return std::string(kprim::to_string(options.algorithm)) + ", " + describe(options.tuning) + ", " +
         kprim::to_string(options.determinism);
}

/// Sizes of the robustness tests: the degenerate ones, odd ones around a warp and a tile, and one
/// that spans many tiles of every algorithm (capped by KPRIM_TEST_MAX_N).
inline std::vector<std::int64_t> robustness_sizes() {
  std::vector<std::int64_t> list{0, 1, 2, 3, 31, 33, 1000, 4099, 100'003};
  std::erase_if(list, [](std::int64_t n) { return n > max_test_size(); });
  return list;
}

/// `n` elements of T in Space's memory with `guard` elements on each side, all set to `sentinel`
/// first: `window` is what a primitive may write, `slot` a rank-0 View for a result; untouched()
/// says whether every element outside them kept the sentinel's bits.
template <class T, class Space>
struct Guarded {
  static constexpr std::int64_t guard = 16;
  using storage_type = Kokkos::View<T*, typename Space::memory_space>;
  T sentinel;
  std::int64_t n;
  storage_type storage;

  Guarded(std::int64_t n_, T sentinel_) : sentinel(sentinel_), n(n_), storage("guarded", n_ + 2 * guard) {
    Kokkos::deep_copy(storage, sentinel);
  }
  auto window() const { return Kokkos::subview(storage, Kokkos::pair<std::int64_t, std::int64_t>(guard, guard + n)); }
  /// A rank-0 View on the first element after the guard (for reduce results and scan totals).
  auto slot() const { return Kokkos::subview(storage, guard); }
  /// The window's elements, as the host sees them.
  std::vector<T> values() const {
    const std::vector<T> all = to_host(storage);
    return std::vector<T>(all.begin() + guard, all.begin() + guard + n);
  }
  bool untouched() const {
    const std::vector<T> all = to_host(storage);
    for (std::int64_t i = 0; i < std::int64_t(all.size()); ++i)
      if ((i < guard || i >= guard + n) && std::memcmp(&all[i], &sentinel, sizeof(T)) != 0) {
        UNSCOPED_INFO("guard element " << i - guard << " (relative to the window) was overwritten");
        return false;
      }
    return true;
  }
};

/// Left-to-right inclusive scan on the host: the reference for every op and type.
template <class T, class Op>
std::vector<T> reference_inclusive(const std::vector<T>& in, const Op& op) {
  std::vector<T> out(in.size());
  T acc = kprim::identity_of<T>(op);
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = acc = op(acc, in[i]);
  return out;
}

/// Left-to-right exclusive scan seeded with `init`, and its total in `total`.
template <class T, class Op>
std::vector<T> reference_exclusive(const std::vector<T>& in, const Op& op, T init, T& total) {
  std::vector<T> out(in.size());
  T acc = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = acc;
    acc = op(acc, in[i]);
  }
  total = acc;
  return out;
}

}  // namespace kprim_test
