// kprim-bench-mpi: the distributed reduce and scans (kprim::mpi) against the same node-local
// calls, per rank, under weak scaling (fixed n per rank) and strong scaling (fixed total n).
//
//   mpiexec -n R kprim-bench-mpi [--min-log2=20] [--max-log2=28] [--reps=30] [--csv=FILE]
//                                [--kokkos-map-device-id-by=mpi_rank]
//
// Each timed repetition starts after an MPI_Barrier and a fence, and its time is the slowest
// rank's (MPI_Allreduce MAX): a collective is only as fast as its last rank. The median over the
// repetitions is reported. Columns (one CSV row per primitive, scaling mode and size):
//   local_us        the node-local kprim call alone (what one rank would pay without MPI)
//   distributed_us  the kprim::mpi call
//   overhead_us     distributed_us - local_us
//   collective_us   the MPI collective alone on one value (MPI_Allreduce / MPI_Exscan), i.e.
//                   the latency part of the overhead
//   local_reduce_us for scans: the local reduce that the distributed scan runs first (its
//                   overhead is this + the collective; see docs/mpi.md)
//   gbps_per_rank   bytes a local call must move (reduce: n reads, scan: n reads + n writes)
//                   divided by distributed_us
// Rows go to stdout (rank 0) and to --csv.

#include <kprim/kprim.hpp>
#include <kprim/mpi.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include "perf_args.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Settings {
  int min_log2 = 20;
  int max_log2 = 28;
  int reps = 30;
  std::string csv;
};

Settings parse(int argc, char* argv[]) {
  Settings s;
  kprim_perf::Arguments args("kprim-bench-mpi", "kprim-bench-mpi: kprim::mpi reduce, dot and scans against MPI "
                                                "collectives over the same data (run under mpiexec)");
  args.option("min-log2", "K", "smallest local n is 2^K",
              [&](const std::string& v) { s.min_log2 = kprim_perf::positive_int(v, "--min-log2"); })
      .option("max-log2", "K", "largest local n is 2^K (default 28)",
              [&](const std::string& v) { s.max_log2 = kprim_perf::positive_int(v, "--max-log2"); })
      .option("reps", "N", "timed calls, the median of the slowest rank reported (default 30)",
              [&](const std::string& v) { s.reps = kprim_perf::positive_int(v, "--reps"); })
      .option("csv", "FILE", "also write the rows to FILE (rank 0)", [&](const std::string& v) { s.csv = v; });
  args.parse(argc, argv);
  return s;
}

/// Median over `reps` of the slowest rank's time of `call` (µs), after two warm-up calls.
double time_us(int reps, const std::function<void()>& call) {
  using Space = Kokkos::DefaultExecutionSpace;
  call();
  call();
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    Space().fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    call();
    Space().fence();
    double mine = (MPI_Wtime() - start) * 1e6, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    samples.push_back(slowest);
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using Space = Kokkos::DefaultExecutionSpace;
    using T = float;
    const Settings settings = parse(argc, argv);
    int rank = 0, ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::printf("kprim-bench-mpi: rank %d of %d on %s, device %d\n", rank, ranks, Space::name(),
                Kokkos::device_id());
    std::fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);

    FILE* csv = nullptr;
    if (rank == 0) {
      if (!settings.csv.empty()) csv = std::fopen(settings.csv.c_str(), "w");
      const char* header =
          "primitive,scaling,ranks,n_per_rank,n_total,type,local_us,distributed_us,overhead_us,collective_us,"
          "local_reduce_us,gbps_per_rank\n";
      std::fputs(header, stdout);
      if (csv) std::fputs(header, csv);
    }
    const Space space;
    for (const char* scaling : {"weak", "strong"}) {
      for (int log2 = settings.min_log2; log2 <= settings.max_log2; log2 += 2) {
        const std::int64_t n_total = std::string(scaling) == "weak" ? (std::int64_t(1) << log2) * ranks
                                                                    : (std::int64_t(1) << log2);
        const std::int64_t n = n_total / ranks + (rank < n_total % ranks ? 1 : 0);
        Kokkos::View<T*> in("in", n), out("out", n);
        Kokkos::deep_copy(in, T(1));

        T value = 0, one = 1, prefix = 0;
        const double reduce_local = time_us(settings.reps, [&] { value = kprim::reduce(space, in); });
        const double reduce_mpi =
            time_us(settings.reps, [&] { value = kprim::mpi::reduce(space, MPI_COMM_WORLD, in); });
        const double allreduce =
            time_us(settings.reps, [&] { MPI_Allreduce(&one, &value, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); });
        const double scan_local = time_us(settings.reps, [&] { kprim::exclusive_scan(space, in, out, T(0)); });
        const double scan_mpi =
            time_us(settings.reps, [&] { kprim::mpi::exclusive_scan(space, MPI_COMM_WORLD, in, out, T(0)); });
        const double exscan =
            time_us(settings.reps, [&] { MPI_Exscan(&one, &prefix, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); });

        // Check the last run: the scan of ones is the global index (exact in float below 2^24).
        T last = -1;
        if (n > 0) Kokkos::deep_copy(last, Kokkos::subview(out, n - 1));
        std::int64_t before = 0;
        for (int r = 0; r < rank; ++r) before += n_total / ranks + (r < n_total % ranks ? 1 : 0);
        int wrong = n > 0 && before + n < (std::int64_t(1) << 24) && last != T(before + n - 1);
        int any_wrong = 0;
        MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

        if (rank == 0) {
          const std::int64_t n0 = n_total / ranks + (n_total % ranks ? 1 : 0);
          char line[512];
          std::snprintf(line, sizeof line, "reduce,%s,%d,%lld,%lld,float,%.2f,%.2f,%.2f,%.2f,,%.1f\n", scaling, ranks,
                        (long long)n0, (long long)n_total, reduce_local, reduce_mpi, reduce_mpi - reduce_local,
                        allreduce, double(n0) * sizeof(T) / reduce_mpi / 1e3);
          std::fputs(line, stdout);
          if (csv) std::fputs(line, csv);
          std::snprintf(line, sizeof line, "exclusive_scan,%s,%d,%lld,%lld,float,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f%s\n",
                        scaling, ranks, (long long)n0, (long long)n_total, scan_local, scan_mpi, scan_mpi - scan_local,
                        exscan, reduce_local, 2.0 * double(n0) * sizeof(T) / scan_mpi / 1e3,
                        any_wrong ? ",WRONG" : "");
          std::fputs(line, stdout);
          if (csv) std::fputs(line, csv);
          std::fflush(stdout);
        }
        if (any_wrong) {
          if (rank == 0) std::fprintf(stderr, "kprim-bench-mpi: wrong scan result\n");
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
      }
    }
    if (csv) std::fclose(csv);
  }
  MPI_Finalize();
  return 0;
}
