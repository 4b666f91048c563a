// One sum of a float View, through kprim.
#include <kprim/reduce.hpp>

float sum(const Kokkos::View<float*>& x) { return kprim::reduce(Kokkos::DefaultExecutionSpace(), x); }
