#!/bin/bash
# 2-core VM (2026-12-01, second session): host Sum scans with persistent teams that fetch the next
# tile ahead (new) against main's (base), alternated four times each way round; run inside the
# sid root from the repository root: bash scripts/sid-root.sh bash perf_tests/results/host-scan-persistent-2026-12-01.sh
cd build/host-exp
export OMP_PROC_BIND=spread OMP_PLACES=threads
S='(1048576|4194304|16777216|67108864)'
F="^(inclusive_scan|exclusive_scan)/(kprim/automatic|std/par_unseq)/(float|int32|double|int64)/$S/|^copy/copy/deep_copy/(float|int32|double|int64)/$S/|^app:(crs_offsets|user_op_scan)/(kprim|kokkos|std)[a-z_]*/[a-z0-9_]*/$S/"
for round in 1 2 3 4; do
  order="base new"; [ $((round % 2)) = 0 ] && order="new base"
  for b in $order; do
    ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$b-$round.csv > $b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $b-$round.txt)"
  done
done
