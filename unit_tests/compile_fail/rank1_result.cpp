// Must not compile: a dot product into a rank-1 View instead of a rank-0 result.
#include <kprim/kprim.hpp>

int main() {
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 4), result("result", 1);
  kprim::dot(Kokkos::DefaultHostExecutionSpace{}, x, x, result);
}
