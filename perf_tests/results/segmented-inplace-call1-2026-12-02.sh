#!/bin/bash
# GPU call 1 (2026-12-02, session 3): the segmented look-ahead kernel, vectors folded and rescanned
# in place (pairs permuted, not elements), for 4- and 8-byte types: tests, sanitizers, bench vs main, ncu.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt; date -u | tee -a $OUT/gpu.txt
# Tests: the long segmented cases (every type, Sum / Max, non-commutative), 8 shards in parallel.
for i in 0 1 2 3 4 5 6 7; do
  timeout 200 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 8 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A12 "FAILED" $OUT/long-*.txt | head -60
date -u
SIZES='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power)/float/$SIZES/|^app:segmented_scan/kprim/(fixed_1000|1000_exclusive|1000_double|fixed_1000_double|1000_exclusive_double)/(float|double)/$SIZES/|^app:segmented_scan/cub/(fixed_1000|1000_double)/(float|double)/67108864/|^copy/copy/deep_copy/(float|double)/$SIZES/|^inclusive_scan/kprim/automatic/float/67108864/"
for round in 1 2; do
  for b in base new; do
    timeout 75 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt) $(grep WRONG $OUT/$b-$round.txt | head -3 | tr '\n' ' ')"
  done
done
date -u
for spec in new:1000/float new:fixed_1000/float new:1-32/float new:1000_double/double base:1000/float; do
  b=${spec%%:*}; row=${spec#*:}; f=$OUT/ncu-$b-${row//\//_}.txt
  timeout 40 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active \
    ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/67108864/" > $f 2>&1
  echo "ncu $b $row: $(grep -E 'segmented_scan_kernel|duration|dram__|registers|inst_exec|issue_active|warps_active' $f | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-80 | tr '\n' ';')"
done
date -u
cd $OUT && tar czf call1.tgz *.txt *.csv && rm -f *.txt *.csv
