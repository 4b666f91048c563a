// Sum, maximum and dot product of Views; a float sum accumulated in double; an async result.
#include <kprim/kprim.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = 1'000'000;
  Kokkos::View<float*> x("x", n), y("y", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) {
    x(i) = 0.5f;
    y(i) = float(i % 4);
  });

  const auto exec = Kokkos::DefaultExecutionSpace();
  const float sum = kprim::reduce(exec, x);                       // blocks until the value is on the host
  const double wide_sum = kprim::reduce<double>(exec, x);         // float data, double accumulator
  const float largest = kprim::reduce(exec, y, kprim::Max{});
  const double dot = kprim::dot<double>(exec, x, y);

  Kokkos::View<double> norm2("norm2");                            // async: the result stays on the device
  kprim::dot(exec, y, y, norm2);
  double norm2_host = 0;
  Kokkos::deep_copy(norm2_host, norm2);                           // fences

  std::printf("sum %g, sum in double %g, max %g, dot %g, |y|^2 %g\n", sum, wide_sum, largest, dot, norm2_host);
  const bool ok = sum == 500000.0f && wide_sum == 500000.0 && largest == 3.0f && dot == 750000.0 &&
                  norm2_host == 3500000.0;
  return ok ? 0 : 1;
}
