// Stream compaction: the positive values of a View, and the indices of the rows that pass a test.
#include <kprim/kprim.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::int64_t n = 1'000'000;
  Kokkos::View<double*> x("x", n), kept("kept", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(std::int64_t i) { x(i) = (i % 3 == 0) ? double(i) : -1.0; });
  const auto exec = Kokkos::DefaultExecutionSpace();

  // Input order is kept; nothing past kept's extent is ever written (a count above it says kept
  // was too small).
  const std::int64_t count = kprim::copy_if(exec, x, kept, KOKKOS_LAMBDA(double v) { return v > 0.0; });

  Kokkos::View<std::int64_t*> rows("rows", n);
  const std::int64_t hits = kprim::copy_index_if(exec, n, KOKKOS_LAMBDA(std::int64_t i) { return x(i) < 0.0; }, rows);

  double first = 0;
  Kokkos::deep_copy(first, Kokkos::subview(kept, 0));
  std::printf("%lld positive values (the first is %g), %lld negative rows\n", (long long)count, first, (long long)hits);
  return count == 333'333 && first == 3.0 && hits == 666'666 ? 0 : 1;
}
