// Sums of a float, a double, an int32 and an int64 View, as Kokkos code.
#include <Kokkos_Core.hpp>

#include <cstdint>

template <class T>
T sum(const Kokkos::View<T*>& x) {
  T total = 0;
  Kokkos::parallel_reduce("sum", x.extent(0), KOKKOS_LAMBDA(std::size_t i, T& partial) { partial += x(i); }, total);
  return total;
}

float sum_float(const Kokkos::View<float*>& x) { return sum(x); }
double sum_double(const Kokkos::View<double*>& x) { return sum(x); }
std::int32_t sum_int32(const Kokkos::View<std::int32_t*>& x) { return sum(x); }
std::int64_t sum_int64(const Kokkos::View<std::int64_t*>& x) { return sum(x); }
