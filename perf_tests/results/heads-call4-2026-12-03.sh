#!/bin/bash
# GPU call 4 (2026-12-03, seventh session): threshold 256 as committed; ungated = the guess gate removed, rpl8 = also 8 loads a lane a round; base = ffa19bc.
cd build/gpu && tar xJf bin4.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu4.txt; date -u | tee -a $OUT/gpu4.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3; do
  for b in base ungated rpl8; do
    timeout 50 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for row in ungated-1e6 rpl8-1e6 ungated-1000; do
  b=${row%%-*}; row=${row#*-}
  timeout 60 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-$b-$row.txt 2>&1
  echo "== ncu $b $row"; grep -E 'Local Memory Spilling Requests|Duration|DRAM Throughput|Achieved Occupancy|Block Size|dram__bytes|lts__t_bytes|Stall|No Eligible' $OUT/ncu-$b-$row.txt | head -14
done
timeout 60 nsys --version > /dev/null 2>&1 && echo "nsys present"
date -u
cd $OUT && tar czf call4.tgz *.txt *.csv && rm -f *.txt *.csv
