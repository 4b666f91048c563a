// Sums of a float, a double, an int32 and an int64 View, through kprim.
#include <kprim/reduce.hpp>

#include <cstdint>

float sum_float(const Kokkos::View<float*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x); }
double sum_double(const Kokkos::View<double*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x); }
std::int32_t sum_int32(const Kokkos::View<std::int32_t*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x); }
std::int64_t sum_int64(const Kokkos::View<std::int64_t*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x); }
