// The largest magnitude in a float View, through kprim with a user op (not among the combinations
// libkprim holds compiled: the call instantiates the kernels `automatic` runs).
#include <kprim/reduce.hpp>

struct MaxAbs {
  static constexpr bool is_commutative = true;
  KOKKOS_FUNCTION float identity() const { return 0.0f; }
  KOKKOS_FUNCTION float operator()(float a, float b) const { return Kokkos::max(Kokkos::abs(a), Kokkos::abs(b)); }
};

float max_abs(const Kokkos::View<float*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x, MaxAbs{}); }
