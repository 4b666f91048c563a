#!/bin/bash
# GPU call 13 (2026-12-03, eighth session): the application rows (a count lambda's CRS offsets, int32 counts into int64
# offsets, a user op, strided and misaligned Views) on call 10's rows (20fcbb6) and chunk (b26d527) binaries.
cd build/gpu && tar xJf bin10.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu13.txt; date -u | tee -a $OUT/gpu13.txt
A="^app:(crs_from_lambda|crs_offsets|misaligned_scan|strided_scan|user_op_scan)/.*/(16777216|67108864)/|^copy/copy/deep_copy/(float|int32)/(16777216|67108864)/"
for round in 1 2 3; do
  for b in rows chunk; do
    timeout 40 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$A" --summary=$OUT/$b-app-$round.csv > $OUT/$b-app-$round.txt 2>&1
    echo "$b app round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-app-$round.txt) rows: $(grep -c manual_time $OUT/$b-app-$round.txt)"
  done
done
date -u
cd $OUT && tar czf call13.tgz *.txt *.csv && rm -f *.txt *.csv
