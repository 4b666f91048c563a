#!/bin/bash
# GPU call A (2026-12-02, fourth session): `offsets` build (CSR segmented look-ahead scans finding
# each tile's heads in the offsets, no marks): tests, sanitizers on the new path, ncu.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpuA.txt; date -u | tee -a $OUT/gpuA.txt
timeout 170 ./kprim-segmented-tests > $OUT/segmented-tests.txt 2>&1 &
for i in 0 1 2 3 4 5; do
  timeout 170 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 6 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
(export KPRIM_TEST_MAX_N=13100000; timeout 170 ./kprim-cuda-tests "*with a commutative op (the look-ahead kernel)*" > $OUT/plain-lookahead.txt 2>&1) &
wait
echo "segmented-tests: $(tail -2 $OUT/segmented-tests.txt | tr '\n' ' ')"
echo "plain look-ahead: $(tail -2 $OUT/plain-lookahead.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A14 "FAILED" $OUT/long-*.txt $OUT/segmented-tests.txt $OUT/plain-lookahead.txt | head -50
date -u
for spec in 1-32:float 1000:float power:float 1000_double:double; do
  mix=${spec%%:*}; ty=${spec#*:}; f=$OUT/ncu-offsets-$mix.txt
  timeout 40 ncu --clock-control none --launch-skip 3 --launch-count 3 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum \
    ./kprim-bench-offsets --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$mix/$ty/67108864/" > $f 2>&1
  echo "ncu $mix: $(grep -E '^  [a-zA-Z_:<>]+|duration|dram__|registers|inst_exec' $f | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-60 | tr '\n' ';')"
done
date -u
export KPRIM_TEST_MAX_N=13100000
for spec in "8:tiny and empty (0-32)" "8:starts on and next to tile edges" "8:partial coverage" "10:power law" "10:tiny and empty (0-32)"; do
  c=${spec%%:*}; sec=${spec#*:}; tag=$c-${sec%% *}
  (timeout 200 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/racecheck-$tag.txt 2>&1) &
done
(timeout 200 compute-sanitizer --tool memcheck ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "starts on and next to tile edges" > $OUT/memcheck-8.txt 2>&1) &
(timeout 200 compute-sanitizer --tool synccheck ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "partial coverage" > $OUT/synccheck-8.txt 2>&1) &
wait
for f in $OUT/racecheck-*.txt $OUT/memcheck-*.txt $OUT/synccheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|FAILED|No test' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf callA.tgz *.txt && rm -f *.txt
