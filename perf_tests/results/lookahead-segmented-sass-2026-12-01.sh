#!/bin/bash
# GPU call D (2026-12-01, second session): where the segmented look-ahead kernel's instructions go.
# ncu's per-SASS-instruction executed counts (SourceCounters, --print-source sass) of one launch
# of the look-ahead segmented kernel (new, the patch) and the lagged one (base) for double
# fixed segments of 1000 and ~1000 CSR at 2^26, plus warp-state stall reasons.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u
for b in new base; do
  for row in fixed_1000_double 1000_double; do
    timeout 120 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
      --section SourceCounters --section WarpStateStats --section SchedulerStats --export /tmp/$b-$row -f \
      ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/double/67108864/" > $OUT/ncu-log-$b-$row.txt 2>&1
    echo "$b $row profile rc=$?"
    timeout 60 ncu --import /tmp/$b-$row.ncu-rep --page details --print-details all > $OUT/details-$b-$row.txt 2>&1
    timeout 60 ncu --import /tmp/$b-$row.ncu-rep --page source --print-source sass > $OUT/sass-$b-$row.txt 2>&1
    echo "$b $row print rc=$? details $(wc -l < $OUT/details-$b-$row.txt) sass $(wc -l < $OUT/sass-$b-$row.txt) lines"
  done
done
date -u
cd $OUT && tar czf sass.tgz *.txt && rm -f *.txt
