// One inclusive scan of a float View into another, as Kokkos code.
#include <Kokkos_Core.hpp>

void inclusive_scan(const Kokkos::View<const float*>& in, const Kokkos::View<float*>& out) {
  Kokkos::parallel_scan("scan", in.extent(0), KOKKOS_LAMBDA(std::size_t i, float& partial, bool final) {
    partial += in(i);
    if (final) out(i) = partial;
  });
}
