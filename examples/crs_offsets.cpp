// CRS row offsets: from a counts View, and from a count lambda (no counts array), the number of
// nonzeros in the last entry; and the same Kokkos::parallel_scan lambda run by kprim unchanged.
#include <kprim/kprim.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::int64_t rows = 100'000;
  Kokkos::View<std::int32_t*> counts("counts", rows);
  Kokkos::parallel_for(rows, KOKKOS_LAMBDA(std::int64_t i) { counts(i) = std::int32_t(i % 5); });
  Kokkos::View<std::int64_t*> row_map("row_map", rows + 1);
  const auto first_rows = Kokkos::subview(row_map, Kokkos::make_pair(std::int64_t(0), rows));
  const auto exec = Kokkos::DefaultExecutionSpace();

  // 1. int32 counts -> int64 offsets, nnz into row_map(rows).
  kprim::exclusive_scan(exec, counts, first_rows, std::int64_t(0), Kokkos::subview(row_map, rows));

  // 2. From a count lambda; the callback gets each row's offset, nnz comes back to the host.
  const auto count = KOKKOS_LAMBDA(std::int64_t i) { return std::int64_t(i % 5); };
  const std::int64_t nnz = kprim::exclusive_scan_each(
      exec, rows, count, KOKKOS_LAMBDA(std::int64_t i, std::int64_t offset) { row_map(i) = offset; },
      std::int64_t(0));

  // 3. An application's Kokkos::parallel_scan lambda, unchanged: only the call's namespace changes.
  std::int64_t total = 0;
  kprim::parallel_scan("row_map", rows, KOKKOS_LAMBDA(std::int64_t i, std::int64_t& partial, bool final) {
    if (final) row_map(i) = partial;
    partial += counts(i);
  }, total);

  std::int64_t last = 0;
  Kokkos::deep_copy(last, Kokkos::subview(row_map, rows - 1));
  std::printf("nnz %lld (parallel_scan: %lld), offset of the last row %lld\n", (long long)nnz, (long long)total,
              (long long)last);
  return nnz == 200'000 && total == nnz && last == nnz - 4 ? 0 : 1;
}
