#!/bin/bash
# GPU call B (2026-12-02, fourth session): `heads` = CSR segmented look-ahead scans with a heads warp
# (search top in registers, 256 probes a round, the starts read from the candidates on), no marks;
# `base` = main 6a76212. Bench alternated 3 times, ncu, kprim-segmented-tests.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpuB.txt; date -u | tee -a $OUT/gpuB.txt
S='(16777216|67108864)'
F="^app:segmented_scan/kprim/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3; do
  for b in base heads; do
    timeout 80 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for spec in heads:1-32:float heads:1000:float heads:power:float heads:1000_double:double base:1000:float base:1-32:float; do
  b=${spec%%:*}; r=${spec#*:}; mix=${r%%:*}; ty=${r#*:}; f=$OUT/ncu-$b-$mix.txt
  timeout 40 ncu --clock-control none --launch-skip 3 --launch-count 4 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$mix/$ty/67108864/" > $f 2>&1
  echo "ncu $b $mix: $(grep -E '^  [a-zA-Z_:<>]+|duration|registers' $f | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-50 | tr '\n' ';')"
done
date -u
timeout 150 ./kprim-segmented-tests > $OUT/segmented-tests.txt 2>&1; echo "segmented-tests: $(tail -2 $OUT/segmented-tests.txt | tr '\n' ' ')"
date -u
cd $OUT && tar czf callB.tgz *.txt *.csv && rm -f *.txt *.csv
