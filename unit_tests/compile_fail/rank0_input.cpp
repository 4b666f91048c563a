// Must not compile: kprim::reduce of a rank-0 View (a value, not a range).
#include <kprim/kprim.hpp>

int main() {
  Kokkos::View<double, Kokkos::HostSpace> value("value");
  return int(kprim::reduce(Kokkos::DefaultHostExecutionSpace{}, value));
}
