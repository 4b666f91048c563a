// Inside your own TeamPolicy kernel, one team per row of a CRS matrix: the row's squared norm
// (kprim::team::reduce) and the running sums along the row (kprim::team::inclusive_scan), next to
// the kernel's own data in team scratch. Then a row per team thread, reduced by its vector lanes
// (kprim::team::vector_reduce, no scratch).
#include <kprim/kprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using policy = Kokkos::TeamPolicy<>;
  using scratch_view = Kokkos::View<double*, policy::execution_space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const std::int64_t rows = 1000;
  Kokkos::View<std::int64_t*> row_map("row_map", rows + 1);  // row r holds r % 100 entries
  kprim::transform_exclusive_scan(
      Kokkos::DefaultExecutionSpace(), rows, KOKKOS_LAMBDA(std::int64_t r) { return r % 100; },
      Kokkos::subview(row_map, Kokkos::make_pair(std::int64_t(0), rows)), std::int64_t(0),
      Kokkos::subview(row_map, rows));
  std::int64_t nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(row_map, rows));
  Kokkos::View<double*> values("values", nnz), running("running", nnz), norms("norms", rows);
  Kokkos::deep_copy(values, 2.0);

  // The team needs its own scratch plus what the team calls take for its size and type.
  const int team_size = policy(rows, Kokkos::AUTO).team_size_recommended(
      KOKKOS_LAMBDA(const policy::member_type&) {}, Kokkos::ParallelForTag{});
  const std::size_t bytes = scratch_view::shmem_size(1) + kprim::team::scratch_bytes<double>(team_size);
  Kokkos::parallel_for(
      "row norms and running sums", policy(rows, team_size).set_scratch_size(0, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const policy::member_type& team) {
        scratch_view scale(team.team_scratch(0), 1);  // the kernel's own scratch first
        if (team.team_rank() == 0) scale(0) = 0.5;
        team.team_barrier();
        const kprim::team::Workspace<double> workspace(team);  // then the team calls' part
        const std::int64_t first = row_map(team.league_rank());
        const std::int64_t n = row_map(team.league_rank() + 1) - first;
        const double norm2 = kprim::team::reduce(team, workspace, n, [&](std::int64_t i) {
          return values(first + i) * values(first + i);
        });
        kprim::team::inclusive_scan(team, workspace, n, [&](std::int64_t i) { return scale(0) * values(first + i); },
                                    [&](std::int64_t i, double sum) { running(first + i) = sum; });
        if (team.team_rank() == 0) norms(team.league_rank()) = norm2;
      });

  // The vector level: 8 rows per team, a row per team thread, its vector lanes reduce the row.
  Kokkos::View<double*> row_max("row_max", rows);
  const int vector_length = std::min(8, policy::vector_length_max());
  Kokkos::parallel_for(
      "row maxima", policy((rows + 7) / 8, Kokkos::AUTO, vector_length), KOKKOS_LAMBDA(const policy::member_type& team) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 8), [&](int k) {
          const std::int64_t r = std::int64_t(team.league_rank()) * 8 + k;
          if (r >= rows) return;
          const std::int64_t first = row_map(r), n = row_map(r + 1) - first;
          const double largest = kprim::team::vector_reduce(
              team, n, [&](std::int64_t i) { return values(first + i) * double(i + 1); }, kprim::Max{});
          Kokkos::single(Kokkos::PerThread(team), [&] { row_max(r) = largest; });
        });
      });

  double last_norm = 0, last_running = 0, last_max = 0;
  Kokkos::deep_copy(last_norm, Kokkos::subview(norms, rows - 1));
  Kokkos::deep_copy(last_running, Kokkos::subview(running, nnz - 1));
  Kokkos::deep_copy(last_max, Kokkos::subview(row_max, rows - 1));
  std::printf("row %lld: squared norm %g, running sum at its end %g, largest of its values x column %g\n",
              (long long)(rows - 1), last_norm, last_running, last_max);
  return last_norm == 4.0 * 99 && last_running == 99.0 && last_max == 2.0 * 99 ? 0 : 1;
}
