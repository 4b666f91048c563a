// Catch2 session for the distributed tests: MPI, then Kokkos, then the tests on every rank.
// Every rank reports; mpiexec fails the run when any rank fails. Test bodies use CHECK, never
// REQUIRE, inside collectives: a rank that left a test case early would hang the others.
#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>
#include <mpi.h>

#include <cstdio>

int main(int argc, char* argv[]) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int failed = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    int rank = 0, ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::printf("kprim-mpi-tests: rank %d of %d\n", rank, ranks);
    failed = Catch::Session().run(argc, argv);
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}
