#!/bin/bash
# GPU call F (2026-12-01, second session): the segmented look-ahead kernel with a run of 4
# consecutive vectors a lane (one warp scan a tile, swizzled stage reads; runs) against main's
# lagged kernel (base) and the patch's fourth form (rounds), same bench source, alternated twice,
# then ncu of the runs kernel. 4- and 8-byte commutative scans take the kernel in the runs build.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu-f.txt; date -u | tee -a $OUT/gpu-f.txt
SIZES='(16777216|67108864)'
F="^app:segmented_scan/kprim/(1000|fixed_1000|1000_exclusive|1000_double|fixed_1000_double|1000_exclusive_double)/(float|double)/$SIZES/|^app:segmented_scan/(kprim|cub)/(1-32|power)/float/67108864/|^app:segmented_scan/cub/(1000|1000_double)/(float|double)/$SIZES/|^copy/copy/deep_copy/(float|double)/$SIZES/"
for round in 1 2; do
  for b in base rounds runs; do
    timeout 60 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt) $(grep WRONG $OUT/$b-$round.txt | head -3 | tr '\n' ' ')"
  done
done
for row in 1000/float 1000_double/double fixed_1000_double/double; do
  timeout 40 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
    ./kprim-bench-runs --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/67108864/" > $OUT/ncu-runs-${row//\//_}.txt 2>&1
  echo "ncu runs $row: $(grep -E 'segmented_scan_kernel|duration|dram__|registers|inst_exec|warps_active' $OUT/ncu-runs-${row//\//_}.txt | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-80 | tr '\n' ';')"
done
date -u
cd $OUT && tar czf runs.tgz *.txt *.csv && rm -f *.txt *.csv
