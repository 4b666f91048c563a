#!/bin/bash
# GPU call 5 (2026-12-03, seventh session): where the CSR kernel with few heads (1e6) spends its time against fixed segments
# (same kernel without the heads warp): ncu per SASS instruction (SourceCounters: stall samples), call 4's `ungated` binary.
cd build/gpu && tar xJf bin4.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u
for row in 1e6 fixed_1000; do
  timeout 150 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SchedulerStats --export /tmp/u-$row -f \
    ./kprim-bench-ungated --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-log-$row.txt 2>&1
  echo "$row profile rc=$?"
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page details --print-details all > $OUT/details-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page source --print-source sass > $OUT/sass-$row.txt 2>&1
  echo "$row print rc=$? details $(wc -l < $OUT/details-$row.txt) sass $(wc -l < $OUT/sass-$row.txt) lines"
done
date -u
cd $OUT && tar czf call5.tgz *.txt && rm -f *.txt
