#!/bin/bash
# GPU call 2 (2026-12-03, seventh session): every CSR call forced onto the heads warp (mean-length threshold 0), the gate on;
# new = ffa19bc's kernel, dev = 4-byte offset words (24 loads a lane) and rounds cut to the expected count; base = ffa19bc as committed.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu2.txt; date -u | tee -a $OUT/gpu2.txt
timeout 150 ./kprim-segmented-tests > $OUT/segmented-tests.txt 2>&1 &
for i in 0 1 2 3 4 5; do
  timeout 150 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 6 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
(export KPRIM_TEST_MAX_N=13100000; timeout 150 ./kprim-cuda-tests "*the look-ahead kernel*" > $OUT/plain-lookahead.txt 2>&1) &
wait
echo "segmented-tests: $(tail -2 $OUT/segmented-tests.txt | tr '\n' ' ')"
echo "plain look-ahead: $(tail -2 $OUT/plain-lookahead.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A14 "FAILED" $OUT/long-*.txt $OUT/segmented-tests.txt $OUT/plain-lookahead.txt | head -60
date -u
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double|1000_int32_to_int64_exclusive)/(float|double|int32)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3; do
  for b in base new dev; do
    timeout 50 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
export KPRIM_TEST_MAX_N=13100000
run() { tool=$1; c=$2; sec=$3; tag=$tool-$c-$(echo ${sec} | tr -c "a-z0-9\n" _ | cut -c1-24)
  (timeout 200 compute-sanitizer --tool $tool $4 ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/$tag.txt 2>&1) & }
run synccheck 8 "runs of one-element segments between long ones"
run synccheck 10 "power law"
run memcheck 10 "runs of one-element segments between long ones"
run memcheck 8 "power law"
run racecheck 8 "power law" "--racecheck-report hazard"
run racecheck 10 "runs of one-element segments between long ones" "--racecheck-report hazard"
run initcheck 8 "power law"
wait
for f in $OUT/synccheck-*.txt $OUT/racecheck-*.txt $OUT/memcheck-*.txt $OUT/initcheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
for row in dev-power dev-1-32 new-power base-power; do
  b=${row%%-*}; row=${row#*-}
  timeout 60 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-$b-$row.txt 2>&1
  echo "== ncu $b $row"; grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Registers Per|dram__bytes|lts__t_bytes|local' $OUT/ncu-$b-$row.txt | head -20
done
date -u
cd $OUT && tar czf call2.tgz *.txt *.csv && rm -f *.txt *.csv
