#!/bin/bash
# GPU call 6 (2026-12-03, seventh session): 2db61c1's kprim-cuda-tests (the guess in every bracket, threshold 256): the long
# segmented shards, the plain look-ahead cases, and sanitizers on two CSR layouts.
cd build/gpu && tar xJf bin6.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu6.txt; date -u | tee -a $OUT/gpu6.txt
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
run synccheck 8 "runs of one-element segments between long ones"
run memcheck 10 "runs of one-element segments between long ones"
run racecheck 8 "partial coverage" "--racecheck-report hazard"
run memcheck 8 "partial coverage"
wait
for f in $OUT/synccheck-*.txt $OUT/racecheck-*.txt $OUT/memcheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call6.tgz *.txt && rm -f *.txt
