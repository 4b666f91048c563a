// A distributed array (a block of elements per MPI rank): global sum and a global exclusive scan,
// each rank's output continuing the previous rank's. Run with mpiexec -n <ranks>.
#include <kprim/kprim.hpp>
#include <kprim/mpi.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  bool ok = false;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const std::int64_t local = 1000;
    Kokkos::View<std::int64_t*> x("x", local), offsets("offsets", local);
    Kokkos::deep_copy(x, 1);

    const std::int64_t global = kprim::mpi::reduce(MPI_COMM_WORLD, x);
    kprim::mpi::exclusive_scan(MPI_COMM_WORLD, x, offsets, std::int64_t(0));
    std::int64_t first = -1;
    Kokkos::deep_copy(first, Kokkos::subview(offsets, 0));  // this rank's first global index
    std::printf("rank %d of %d: global sum %lld, my first offset %lld\n", rank, ranks, (long long)global,
                (long long)first);
    ok = global == local * ranks && first == local * rank;
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
