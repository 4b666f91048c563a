#!/bin/bash
# GPU call 9 (2026-12-03, eighth session): is the reduce warp's fold of a tile without heads what the 1e6 mix waits for?
# rows = 20fcbb6's kernel with the new bench row fixed_1e6 (fixed segments of 10^6: no heads warp, whole folds);
# probe = the same with the reduce warp publishing before any fold (results WRONG, timing only; not kept).
cd build/gpu && tar xJf bin9.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu9.txt; date -u | tee -a $OUT/gpu9.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|fixed_1e6|1000_exclusive|1000_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/|^inclusive_scan/(kprim/automatic|cub/DeviceScan)/float/$S/"
for round in 1 2 3; do
  for b in rows probe; do
    timeout 60 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for row in fixed_1e6 fixed_1000 1e6; do
  timeout 100 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    --export /tmp/u-$row -f ./kprim-bench-rows --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-log-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page details --print-details all > $OUT/details-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page source --print-source sass > $OUT/sass-$row.txt 2>&1
  echo "$row: $(grep -E 'Duration|DRAM Throughput' $OUT/details-$row.txt | head -2 | tr -s ' ' | tr '\n' ' ')"
done
date -u
cd $OUT && tar czf call9.tgz *.txt *.csv && rm -f *.txt *.csv
