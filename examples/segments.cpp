// Segmented reduce and scans: per-row sums, maxima and prefix sums of a CRS matrix's values (rows
// of any length, empty ones included, in one launch each), and per-block sums of fixed-size blocks.
#include <kprim/kprim.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const auto exec = Kokkos::DefaultExecutionSpace();
  const std::int64_t rows = 100'000;

  // A CRS layout: row r holds r % 7 entries (every seventh row is empty), each of value 1.
  Kokkos::View<std::int64_t*> row_map("row_map", rows + 1);
  kprim::transform_exclusive_scan(exec, rows + 1, KOKKOS_LAMBDA(std::int64_t r) { return r % 7; }, row_map,
                                  std::int64_t(0));
  std::int64_t nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(row_map, rows));
  Kokkos::View<float*> values("values", nnz);
  Kokkos::deep_copy(values, 1.0f);

  // One value per row: the sum (in double) and the largest entry (-inf for an empty row).
  Kokkos::View<double*> row_sums("row_sums", rows);
  Kokkos::View<float*> row_max("row_max", rows);
  kprim::segmented_reduce(exec, values, row_map, row_sums);
  kprim::segmented_reduce(exec, values, row_map, row_max, kprim::Max{});

  // One value per entry: its position within its row (an exclusive scan of ones per row).
  Kokkos::View<float*> position("position", nnz);
  kprim::segmented_exclusive_scan(exec, values, row_map, position, 0.0f);

  // Fixed-size segments: sums of blocks of 64 entries (the last one shorter).
  const std::int64_t blocks = (nnz + 63) / 64;
  Kokkos::View<float*> block_sums("block_sums", blocks);
  kprim::segmented_reduce(exec, values, 64, block_sums);

  double sum_of_row_13 = 0, last_block = 0;
  float max_of_row_14 = 0, last_position = 0;
  Kokkos::deep_copy(sum_of_row_13, Kokkos::subview(row_sums, 13));
  Kokkos::deep_copy(max_of_row_14, Kokkos::subview(row_max, 14));  // row 14 is empty
  Kokkos::deep_copy(last_position, Kokkos::subview(position, nnz - 1));
  float last_block_sum = 0;
  Kokkos::deep_copy(last_block_sum, Kokkos::subview(block_sums, blocks - 1));
  last_block = last_block_sum;
  std::printf("nnz %lld; row 13 sums to %g, row 14 (empty) has max %g, the last entry is at %g in its row, "
              "the last block of 64 sums to %g\n",
              (long long)nnz, sum_of_row_13, double(max_of_row_14), double(last_position), last_block);
  const bool right = sum_of_row_13 == 13 % 7 && max_of_row_14 == -Kokkos::Experimental::infinity_v<float> &&
                     last_position == float((rows - 1) % 7 - 1) && last_block == double(nnz - 64 * (blocks - 1));
  return right ? 0 : 1;
}
