// One call, any execution space: the same template runs on the default (device) space and on the
// host, on separate instances; nothing in the call changes.
#include <kprim/kprim.hpp>

#include <cstdio>

template <class Space>
double prefix_total(const Space& space, int n) {
  using Memory = typename Space::memory_space;
  Kokkos::View<double*, Memory> x("x", n), prefix("prefix", n);
  Kokkos::deep_copy(space, x, 1.0);
  Kokkos::View<double, Memory> total("total");
  kprim::inclusive_scan(space, x, prefix, total);  // async on `space`
  double value = 0;
  Kokkos::deep_copy(space, value, total);
  space.fence();
  return value;
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const double on_device = prefix_total(Kokkos::DefaultExecutionSpace(), 100'000);
  const double on_host = prefix_total(Kokkos::DefaultHostExecutionSpace(), 100'000);
  std::printf("%s: %g, %s: %g\n", Kokkos::DefaultExecutionSpace::name(), on_device,
              Kokkos::DefaultHostExecutionSpace::name(), on_host);
  return on_device == 100000.0 && on_host == 100000.0 ? 0 : 1;
}
