#include <kprim/kprim.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  static_assert(KPRIM_VERSION >= 100, "kprim/config.hpp is installed");
  if (std::strcmp(kprim::version_string(), KPRIM_VERSION_STRING) != 0) return 1;
  Kokkos::View<double*> x("x", 1000);
  Kokkos::deep_copy(x, 2.0);
  const double sum = kprim::reduce(x);
  kprim::inclusive_scan(x, x);
  double last = 0;
  Kokkos::deep_copy(last, Kokkos::subview(x, 999));
  std::printf("kprim %s: sum %g, last prefix %g\n", kprim::version_string(), sum, last);
  return sum == 2000.0 && last == 2000.0 ? 0 : 1;
}
