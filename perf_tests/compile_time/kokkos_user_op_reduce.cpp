// The largest magnitude in a float View, as Kokkos code (a reduction kprim does not precompile:
// its op is the user's).
#include <Kokkos_Core.hpp>

float max_abs(const Kokkos::View<float*>& x) {
  float result = 0;
  Kokkos::parallel_reduce(
      "max_abs", x.extent(0), KOKKOS_LAMBDA(std::size_t i, float& m) { m = Kokkos::max(m, Kokkos::abs(x(i))); },
      Kokkos::Max<float>(result));
  return result;
}
