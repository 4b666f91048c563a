// Must not compile: a scan into a View of const elements.
#include <kprim/kprim.hpp>

int main() {
  Kokkos::View<double*, Kokkos::HostSpace> in("in", 4);
  Kokkos::View<const double*, Kokkos::HostSpace> out = in;
  kprim::inclusive_scan(Kokkos::DefaultHostExecutionSpace{}, in, out);
}
