#!/bin/bash
# GPU call 5 (2026-12-02, third session): where the float segmented look-ahead kernel's instructions
# go: ncu per SASS instruction (SourceCounters) plus warp states, one launch, float ~1000 and fixed
# segments of 1000 at 2^26, this commit's kprim-bench (narrow).
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u
for row in 1000 fixed_1000; do
  timeout 150 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SchedulerStats --export /tmp/narrow-$row -f \
    ./kprim-bench-narrow --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-log-$row.txt 2>&1
  echo "$row profile rc=$?"
  timeout 60 ncu --import /tmp/narrow-$row.ncu-rep --page details --print-details all > $OUT/details-$row.txt 2>&1
  timeout 60 ncu --import /tmp/narrow-$row.ncu-rep --page source --print-source sass > $OUT/sass-$row.txt 2>&1
  echo "$row print rc=$? details $(wc -l < $OUT/details-$row.txt) sass $(wc -l < $OUT/sass-$row.txt) lines"
done
date -u
cd $OUT && tar czf sass.tgz *.txt && rm -f *.txt
