#!/bin/bash
# GPU call 7 (2026-12-03, eighth session): the heads warp's window (HeadsWindow: offsets loaded a tile ahead around the
# block's likely next tile, or once where they all fit); base = 2db61c1 as committed (call 4's `ungated` binary), win = the window.
cd build/gpu && tar xJf bin7.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu7.txt; date -u | tee -a $OUT/gpu7.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3 4; do
  for b in base win; do
    timeout 50 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for row in win-1e6 win-1000 base-1000; do
  b=${row%%-*}; row=${row#*-}
  timeout 60 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum --section MemoryWorkloadAnalysis \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-$b-$row.txt 2>&1
  echo "== ncu $b $row"; grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Registers Per|dram__bytes|lts__t_bytes|inst_executed|Local Memory Spilling Requests ' $OUT/ncu-$b-$row.txt | head -12
done
date -u
for i in 0 1 2 3 4 5; do
  timeout 150 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 6 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
(export KPRIM_TEST_MAX_N=13100000; timeout 150 ./kprim-cuda-tests "*the look-ahead kernel*" > $OUT/plain-lookahead.txt 2>&1) &
wait
echo "plain look-ahead: $(tail -2 $OUT/plain-lookahead.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A14 "FAILED" $OUT/long-*.txt $OUT/plain-lookahead.txt | head -60
date -u
export KPRIM_TEST_MAX_N=13100000
run() { tool=$1; c=$2; sec=$3; tag=$tool-$c-$(echo ${sec} | tr -c "a-z0-9\n" _ | cut -c1-24)
  (timeout 200 compute-sanitizer --tool $tool $4 ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/$tag.txt 2>&1) & }
run synccheck 8 "about a thousand, empty ones among them"
run memcheck 10 "dense tiles among long segments"
run racecheck 8 "partial coverage" "--racecheck-report hazard"
run memcheck 8 "a few hundred segments"
run memcheck 8 "about a thousand, empty ones among them"
wait
for f in $OUT/synccheck-*.txt $OUT/racecheck-*.txt $OUT/memcheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call7.tgz *.txt *.csv && rm -f *.txt *.csv
