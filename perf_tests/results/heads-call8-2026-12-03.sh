#!/bin/bash
# GPU call 8 (2026-12-03, eighth session): the heads warp's window loaded once where every offset fits it (S < 512), no
# prefetch otherwise (`whole`); base = 2db61c1 as committed (call 4's `ungated` binary).
cd build/gpu && tar xJf bin8.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu8.txt; date -u | tee -a $OUT/gpu8.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3 4; do
  for b in base whole; do
    timeout 50 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for row in whole-1e6 base-1e6; do
  b=${row%%-*}; row=${row#*-}
  timeout 150 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section SpeedOfLight \
    --export /tmp/u-$b-$row -f ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-log-$b-$row.txt 2>&1
  echo "$b $row profile rc=$?"
  timeout 60 ncu --import /tmp/u-$b-$row.ncu-rep --page details --print-details all > $OUT/details-$b-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$b-$row.ncu-rep --page source --print-source sass > $OUT/sass-$b-$row.txt 2>&1
  grep -E 'Duration|Local Memory Spilling Requests |DRAM Throughput' $OUT/details-$b-$row.txt | head -4
done
date -u
cd $OUT && tar czf call8.tgz *.txt *.csv && rm -f *.txt *.csv
