#!/bin/bash
# GPU call 1 (2026-12-03, sixth session): every CSR segmented scan on the heads warp (threshold 0), the
# search top in shared memory, the window interpolated in the bracket (16 loads a lane): tests,
# sanitizers, bench new vs base (main ae6179a), ncu of the heads kernel.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu1.txt; date -u | tee -a $OUT/gpu1.txt
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
F="^app:segmented_scan/(kprim|cub)/(1-32|1000|1e6|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double)/$S/"
for round in 1 2 3; do
  for b in base new; do
    timeout 40 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
export KPRIM_TEST_MAX_N=13100000
run() { tool=$1; c=$2; sec=$3; tag=$tool-$c-$(echo ${sec} | tr -c "a-z0-9\n" _ | cut -c1-24)
  (timeout 200 compute-sanitizer --tool $tool $4 ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/$tag.txt 2>&1) & }
run synccheck 8 "tiny and empty (0-32)"
run synccheck 8 "power law"
run synccheck 10 "partial coverage"
run synccheck 8 "dense tiles among long segments"
run racecheck 8 "tiny and empty (0-32)" "--racecheck-report hazard"
run racecheck 10 "power law" "--racecheck-report hazard"
run racecheck 8 "starts on and next to tile edges" "--racecheck-report hazard"
run memcheck 8 "tiny and empty (0-32)"
run memcheck 10 "power law"
run memcheck 8 "partial coverage"
run initcheck 8 "tiny and empty (0-32)"
run synccheck 8 "runs of one-element segments between long ones"
run memcheck 10 "runs of one-element segments between long ones"
run racecheck 8 "runs of one-element segments between long ones" "--racecheck-report hazard"
wait
for f in $OUT/synccheck-*.txt $OUT/racecheck-*.txt $OUT/memcheck-*.txt $OUT/initcheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
for row in 1-32 1000; do
  timeout 60 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    ./kprim-bench-new --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-$row.txt 2>&1
  echo "== ncu new $row"; grep -E 'Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|dram__bytes|lts__t_bytes|local' $OUT/ncu-$row.txt | head -20
done
date -u
cd $OUT && tar czf call1.tgz *.txt *.csv && rm -f *.txt *.csv
