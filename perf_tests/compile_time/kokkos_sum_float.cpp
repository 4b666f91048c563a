// One sum of a float View, as Kokkos code.
#include <Kokkos_Core.hpp>

float sum(const Kokkos::View<float*>& x) {
  float total = 0;
  Kokkos::parallel_reduce("sum", x.extent(0), KOKKOS_LAMBDA(std::size_t i, float& partial) { partial += x(i); }, total);
  return total;
}
