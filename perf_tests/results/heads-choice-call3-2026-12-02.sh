#!/bin/bash
# GPU call 3 (2026-12-02, fifth session): as call 1, the kept form (the wait on `reduced` before a non-bulk tile frees its stage); then the bench A/B.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu3.txt; date -u | tee -a $OUT/gpu3.txt
timeout 180 ./kprim-segmented-tests > $OUT/segmented-tests.txt 2>&1 &
for i in 0 1 2 3 4 5; do
  timeout 180 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 6 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
(export KPRIM_TEST_MAX_N=13100000; timeout 180 ./kprim-cuda-tests "*the look-ahead kernel*" > $OUT/plain-lookahead.txt 2>&1) &
wait
echo "segmented-tests: $(tail -2 $OUT/segmented-tests.txt | tr '\n' ' ')"
echo "plain look-ahead: $(tail -2 $OUT/plain-lookahead.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A14 "FAILED" $OUT/long-*.txt $OUT/segmented-tests.txt $OUT/plain-lookahead.txt | head -60
date -u
export KPRIM_TEST_MAX_N=13100000
run() { tool=$1; c=$2; sec=$3; tag=$tool-$c-${sec%% *}
  (timeout 240 compute-sanitizer --tool $tool $4 ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/$tag.txt 2>&1) & }
run synccheck 8 "partial coverage"
run synccheck 8 "dense tiles among long segments"
run synccheck 8 "tiny and empty (0-32)"
run synccheck 10 "about a thousand, empty ones among them"
run racecheck 8 "dense tiles among long segments" "--racecheck-report hazard"
run racecheck 8 "about a thousand, empty ones among them" "--racecheck-report hazard"
run racecheck 8 "partial coverage" "--racecheck-report hazard"
run racecheck 10 "one segment" "--racecheck-report hazard"
run racecheck 8 "tiny and empty (0-32)" "--racecheck-report hazard"
run memcheck 8 "dense tiles among long segments"
run memcheck 10 "partial coverage"
run memcheck 8 "starts on and next to tile edges"
wait
for f in $OUT/synccheck-*.txt $OUT/racecheck-*.txt $OUT/memcheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
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
cd $OUT && tar czf call3.tgz *.txt *.csv && rm -f *.txt *.csv
