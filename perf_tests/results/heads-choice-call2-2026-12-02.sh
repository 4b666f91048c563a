#!/bin/bash
# GPU call 2 (2026-12-02, fifth session): bench `new` (this build) against `base` (main 305ef02), alternated 3 times; ncu.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu2.txt; date -u | tee -a $OUT/gpu2.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3; do
  for b in base new; do
    timeout 75 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for spec in new:1000:float new:1e6:float new:1000_double:double base:1000:float; do
  b=${spec%%:*}; r=${spec#*:}; mix=${r%%:*}; ty=${r#*:}; f=$OUT/ncu-$b-$mix.txt
  timeout 35 ncu --clock-control none --launch-skip 3 --launch-count 4 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$mix/$ty/67108864/" > $f 2>&1
  echo "ncu $b $mix: $(grep -E '^  [a-zA-Z_:<>]+|duration|registers' $f | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-50 | tr '\n' ';')"
done
date -u
cd $OUT && tar czf call2.tgz *.txt *.csv && rm -f *.txt *.csv
