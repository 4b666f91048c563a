#!/bin/bash
# GPU call 10 (2026-12-03, eighth session): rows = 20fcbb6's kernels with the fixed_1e6 bench row; chunk = each tile loaded
# as 4 bulk copies on 4 barriers (the reduce warp folds a chunk as it lands; segmented: skips the chunks before the last
# head), plain and segmented look-ahead kernels; probe = rows with the reduce warp ignoring the heads (results WRONG in
# tiles with heads, timing only; not kept).
cd build/gpu && tar xJf bin10.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu10.txt; date -u | tee -a $OUT/gpu10.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|fixed_1e6|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
P="^(inclusive|exclusive)_scan/(kprim/automatic|cub/DeviceScan)/(float|double|int32)/(16777216|67108864|268435456)/|^copy/copy/deep_copy/(float|double|int32)/(16777216|67108864|268435456)/"
for round in 1 2 3; do
  for b in rows chunk probe; do
    timeout 60 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-seg-$round.csv > $OUT/$b-seg-$round.txt 2>&1
    echo "$b seg round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-seg-$round.txt)"
    [ $b = probe ] && continue
    timeout 90 ./kprim-bench-$b --reps=20 --max-log2=28 --benchmark_filter="$P" --summary=$OUT/$b-plain-$round.csv > $OUT/$b-plain-$round.txt 2>&1
    echo "$b plain round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-plain-$round.txt)"
  done
done
date -u
cd $OUT && tar czf call10.tgz *.txt *.csv && rm -f *.txt *.csv
