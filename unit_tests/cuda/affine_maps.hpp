#pragma once
// A non-commutative user type and op for the CUDA tests (test_cuda_paths.cpp,
// test_cuda_segmented.cpp): affine maps mod a prime, 4 and 8 bytes wide, the widths the lagged and
// look-ahead kernels take.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

namespace kprim_test {

/// x -> a x + b (mod P) in two Ints; op(f, g) applies f, then g (computed in Wide): associative,
/// not commutative.
template <class Int, class Wide, Wide P>
struct Affine {
  Int a = 1, b = 0;
  KOKKOS_FUNCTION friend bool operator==(const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; }
  friend const Affine& operator+(const Affine& f) { return f; }  // first_mismatch prints +value
  friend std::ostream& operator<<(std::ostream& os, const Affine& f) { return os << f.a << " x + " << f.b; }
};

template <class F, class Wide, Wide P>
struct ThenAffine {
  static constexpr Wide p = P;
  KOKKOS_FUNCTION F identity() const { return {}; }
  KOKKOS_FUNCTION F operator()(const F& f, const F& g) const {
    using Int = decltype(F::a);
    return {Int(Wide(g.a) * f.a % p), Int((Wide(g.a) * f.b + g.b) % p)};
  }
};

using Affine16 = Affine<std::int16_t, std::int32_t, 251>;  // 4 bytes
using ThenAffine16 = ThenAffine<Affine16, std::int32_t, 251>;
using Affine32 = Affine<std::int32_t, std::int64_t, 46349>;  // 8 bytes
using ThenAffine32 = ThenAffine<Affine32, std::int64_t, 46349>;

/// n random maps of Op's modulus (a in [1, p), b in [0, p)), seeded by `seed`.
template <class F, class Op>
std::vector<F> random_affine_maps(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> maps(n);
  for (auto& f : maps) f = {decltype(F::a)(1 + rng() % (Op::p - 1)), decltype(F::b)(rng() % Op::p)};
  return maps;
}

}  // namespace kprim_test
