#!/bin/bash
# GPU call 3 (2026-12-03, seventh session): the guess gate on or off with every CSR call on the heads warp (threshold 0),
# against ffa19bc as committed, in one run; ncu of where a CSR call with few heads (1e6) loses to fixed segments.
cd build/gpu && tar xJf bin3.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu3.txt; date -u | tee -a $OUT/gpu3.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000)/float/$S/|^copy/copy/deep_copy/float/$S/"
for round in 1 2 3; do
  for b in base gated ungated; do
    timeout 50 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for row in ungated-power gated-power base-1e6 base-fixed_1000; do
  b=${row%%-*}; row=${row#*-}
  timeout 60 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-$b-$row.txt 2>&1
  echo "== ncu $b $row"; grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Block Size|dram__bytes|lts__t_bytes|Stall|No Eligible' $OUT/ncu-$b-$row.txt | head -14
done
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum ./kprim-bench-base --reps=1 --max-log2=26 \
  --benchmark_filter="^app:segmented_scan/kprim/(1e6|fixed_1000)/float/67108864/" > $OUT/ncu-kernels.txt 2>&1
grep -E '^  [a-zA-Z_].*\(|gpu__time_duration' $OUT/ncu-kernels.txt | paste - - | awk '{print $1, $(NF)}' | sort | uniq -c | sort -rn | head -20
timeout 60 nsys --version > /dev/null 2>&1 && echo "nsys present"
date -u
cd $OUT && tar czf call3.tgz *.txt *.csv && rm -f *.txt *.csv
