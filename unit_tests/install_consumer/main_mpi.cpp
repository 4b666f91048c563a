// Built only when the installed kprim has MPI: a one-rank global sum through kprim::mpi.
#include <kprim/kprim.hpp>
#include <kprim/mpi.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int ok = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    Kokkos::View<double*> x("x", 1000);
    Kokkos::deep_copy(x, 2.0);
    int ranks = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const double sum = kprim::mpi::reduce(MPI_COMM_WORLD, x);
    std::printf("kprim::mpi: sum %g over %d rank(s)\n", sum, ranks);
    ok = sum == 2000.0 * ranks;
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
