#!/bin/bash
# GPU call 14 (2026-12-03, eighth session): probe, not kept: the CSR kernel without its heads warp, each warp finding its
# bits by a binary search of every offset in shared memory (valid only where S < 512: the 1e6 row; the others WRONG);
# rows = 20fcbb6's kernel (call 10's binary).
cd build/gpu && tar xJf bin14.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu14.txt; date -u | tee -a $OUT/gpu14.txt
F="^app:segmented_scan/kprim/(1e6|fixed_1000|fixed_1e6)/float/(16777216|67108864)/|^copy/copy/deep_copy/float/(16777216|67108864)/"
for round in 1 2 3 4; do
  for b in rows noheads; do
    timeout 30 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
cd $OUT && tar czf call14.tgz *.txt *.csv && rm -f *.txt *.csv
